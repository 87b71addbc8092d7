/*
 * symbol-text - symbol tables read from text: kallsyms files as perf reads them (a
 * line parsed in one pass over its bytes; a file read in 256 KiB blocks, each parsed
 * in place by any thread: kallsyms_load__*(), kallsyms_block__parse()), the modules'
 * symbols split off (kmod_symbols) and the table shifted by the kernel's relocation,
 * and perf-PID.map files (JIT symbols).
 */
#define DIRREPORT_IN_MACHINE
#include "machine/symbol.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdio.h>	/* fclose, fopen, getline */
#include <stdlib.h>	/* calloc, free, strtoull */
#include <string.h>	/* mem{chr,cmp,cpy,move,rchr,set}, strchr, strcmp, strlen */
#include <unistd.h>	/* close, read */

#include "machine/symbol-internal.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "banned.h"

/* ------------------------------------------------------------------------ */
/* kallsyms                                                                  */
/* ------------------------------------------------------------------------ */

#define KSYM_NAME_LEN 512	/* perf 6.1 reads at most this many name bytes */

/* A hex digit's value plus one; 0 for any other byte. */
static const uint8_t hex_digit[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* What a byte of a kallsyms name is to the parser: the end of the name (NUL, or
 * the newline of a line not cut yet), or SB_KIND_BRACKET / SB_KIND_TAB for the bytes the
 * kallsyms rules look for; 0 for the rest. */
#define NAME_END 0x80u
static const uint8_t name_byte[256] = {
	[0] = NAME_END, ['\n'] = NAME_END, ['['] = SB_KIND_BRACKET, ['\t'] = SB_KIND_TAB,
};

/*
 * Parse one kallsyms line, "ADDR TYPE NAME" ending at a NUL or a newline; false if
 * it is not one.  The name ends at its first NUL or newline, cut to KSYM_NAME_LEN
 * bytes, and a NUL is written after it; *len is its length, *kind the SB_KIND_BRACKET
 * and SB_KIND_TAB bits of the bytes it holds.  One pass over the line's bytes (a scan
 * for the newline, the name's length and each rule's byte, each a library call of its
 * own, took twice as long on a kernel's 122k lines).
 */
static bool kallsyms_line(char *line, uint64_t *addr, char *type, char **name,
			  size_t *len, uint8_t *kind)
{
	unsigned char *p = (unsigned char *)line;
	uint64_t v = 0;
	unsigned d;
	size_t n = 0;
	uint8_t k = 0, c;

	if (!hex_digit[*p])
		return false;
	while ((d = hex_digit[*p]) != 0) {
		v = v * 16 + (d - 1);
		p++;
	}
	if (*p++ != ' ' || !*p)
		return false;
	*type = (char)*p++;
	if (*p++ != ' ')
		return false;
	while (n < KSYM_NAME_LEN && !((c = name_byte[p[n]]) & NAME_END)) {
		k |= c;
		n++;
	}
	p[n] = '\0';
	*addr = v;
	*name = (char *)p;
	*len = n;
	*kind = k;
	return true;
}

/* toupper() of the "C" locale, which the programs keep (no setlocale()), without
 * the library call each line made. */
static int type_upper(char type)
{
	return type >= 'a' && type <= 'z' ? type - 'a' + 'A' : (unsigned char)type;
}

static bool kallsyms_type_kept(char type)
{
	int t = type_upper(type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static uint8_t kallsyms_binding(char type)
{
	if (type == 'W')
		return 2;	/* STB_WEAK */
	return type >= 'A' && type <= 'Z' ? 1 : 0;	/* isupper() of the "C" locale */
}

static uint8_t kallsyms_stt(char type)
{
	int t = type_upper(type);

	return (t == 'T' || t == 'W') ? 2 /* STT_FUNC */ : 1 /* STT_OBJECT */;
}

/* name + 1 bytes into the pool of k; its offset in *off. */
static int kmod_pool_add(struct kmod_symbols *k, const char *name, size_t len,
			 uint32_t *off)
{
	if (array__grow(&k->pool, &k->pool_cap, k->pool_len + len + 1, 1, 4096))
		return -ENOMEM;
	memcpy(k->pool + k->pool_len, name, len);
	k->pool[k->pool_len + len] = '\0';
	*off = (uint32_t)k->pool_len;
	k->pool_len += len + 1;
	return 0;
}

/* Node x ("sym\t[mod]") into k, in order. */
static int kmod_keep(struct kmod_symbols *k, const struct symtab_builder *b, uint32_t x)
{
	const char *name = symtab_builder__node_name(b, x), *tab = strchr(name, '\t');
	struct kmod_sym *m;

	if (array__grow(&k->v, &k->cap, k->nr + 1, sizeof(*k->v), 256))
		return -ENOMEM;
	m = &k->v[k->nr];
	*m = (struct kmod_sym){ .start = b->n[x].start, .end = b->n[x].end,
				.binding = b->n[x].binding, .type = b->n[x].type };
	if (kmod_pool_add(k, name, (size_t)(tab - name), &m->name) ||
	    kmod_pool_add(k, tab + 1, strlen(tab + 1), &m->module))
		return -ENOMEM;
	k->nr++;
	return 0;
}

int kmod_symbols__table(const struct kmod_symbols *k, const char *module,
			uint64_t map_start, struct symtab *out)
{
	struct symtab_builder b = { 0 };
	int err = 0;

	for (size_t i = 0; i < k->nr && !err; i++) {
		const struct kmod_sym *m = &k->v[i];
		const char *name = k->pool + m->name;

		if (strcmp(k->pool + m->module, module))
			continue;
		err = symtab_builder__add(&b, m->start - map_start, m->end - m->start,
					  m->binding, m->type, name, strlen(name));
	}
	if (!err)
		err = symtab_builder__finish(&b, out);
	symtab_builder__exit(&b);
	for (size_t i = 0; !err && i < out->nr; i++)
		out->syms[i].namelen_extra = (uint16_t)(1 + strlen(module));
	return err ? err : (int)out->nr;
}

void kmod_symbols__exit(struct kmod_symbols *k)
{
	free(k->v);
	free(k->pool);
	memset(k, 0, sizeof(*k));
}

/* Remove module symbols (into mods, unless NULL) and the x86 entry trampoline, shift
 * the rest by -delta. */
static int kallsyms_split(struct symtab_builder *b, uint64_t delta,
			  struct kmod_symbols *mods)
{
	size_t w = 0;

	if (symtab_builder__build_seq(b))
		return -ENOMEM;
	for (size_t i = 0; i < b->seq_nr; i++) {
		uint32_t x = b->seq[i];
		bool kmod = symtab_builder__name_has(b, x, '\t', SB_KIND_TAB);
		const char *name = symtab_builder__node_name(b, x);

		if (kmod && mods && kmod_keep(mods, b, x))
			return -ENOMEM;
		if (kmod || (name[0] == '_' && name[1] == '_' &&
			     !strcmp(name, "__entry_SYSCALL_64_trampoline"))) {
			if (symtab_builder__seq_erase(b, x))
				return -ENOMEM;
			continue;
		}
		b->seq[w++] = x;
	}
	b->seq_nr = w;
	/* perf shifts its symbols in place; erased ones too, so that a replay of its
	 * tree (symtab_builder__finish) compares the keys perf compared */
	for (size_t i = 0; delta && i < b->nr; i++) {
		b->n[i].start -= delta;
		b->n[i].end -= delta;
	}
	return 0;
}

/* ---- a kallsyms file, block by block ----------------------------------------
 * The file is read into one buffer, its text, block after block of whole lines;
 * each block gets slots in the builder's node array, one for each of its lines,
 * and is parsed there (in place: a name is its offset in the text, which becomes the
 * builder's pool), on whichever thread takes it; at the end the blocks' symbols
 * are moved together in file order.  Nothing is copied but the nodes' moves. */

/* /proc/kallsyms gives up to a page a read(): blocks of about this many bytes are
 * read (a loop of read()s) before they are handed out */
#define KALLSYMS_BLOCK (256u << 10)
/* Room at first, touched only as it is used: the text (a /proc/kallsyms of 120k
 * symbols is 5 MB) and the nodes */
#define KALLSYMS_TEXT_CAP (32u << 20)
#define KALLSYMS_NODES_CAP (256u << 10)

struct kallsyms_block {
	char *text;			/* the load's text */
	size_t off, len;		/* the block's bytes in it */
	struct sb_node *slots;		/* one for each of its lines */
	size_t first;			/* index of slots[0] in the node array */
	size_t kept;			/* symbols parsed into the slots */
	struct kallsyms_text t;		/* its first _text line, if any */
};

int kallsyms_load__open(struct kallsyms_load *l, const char *path)
{
	*l = (struct kallsyms_load){ .fd = open(path, O_RDONLY | O_CLOEXEC) };
	return l->fd < 0 ? -errno : 0;
}

int kallsyms_load__open_fd(struct kallsyms_load *l, int fd)
{
	*l = (struct kallsyms_load){ .fd = fd };
	return fd < 0 ? -EBADF : 0;
}

/* Room for a block more of text (its NUL too) and for lines more nodes: 0; 2 when
 * it must move and may not; -ENOMEM. */
static int load_room(struct kallsyms_load *l, size_t lines, bool may_move)
{
	if (l->cap - l->len < KALLSYMS_BLOCK + 1) {
		size_t cap = l->cap ? l->cap : l->first_cap ? l->first_cap : KALLSYMS_TEXT_CAP;
		char *t;

		if (!may_move)
			return 2;
		while (cap - l->len < KALLSYMS_BLOCK + 1 && cap <= UINT32_MAX)
			cap *= 2;
		if (cap > UINT32_MAX ||
		    !(t = hugemem__realloc(l->text, l->len, cap, &l->text_mapped)))
			return -ENOMEM;
		l->text = t;
		l->cap = cap;
	}
	if (l->nodes_cap - l->lines < lines) {
		size_t cap = l->nodes_cap ? l->nodes_cap :
			     l->first_nodes ? l->first_nodes : KALLSYMS_NODES_CAP;
		struct sb_node *n;

		if (!may_move)
			return 2;
		while (cap - l->lines < lines)
			cap *= 2;
		if (cap >= SYMTAB_NO_SYM ||
		    !(n = hugemem__realloc(l->nodes, l->lines * sizeof(*n), cap * sizeof(*n),
					   &l->nodes_mapped)))
			return -ENOMEM;
		l->nodes = n;
		l->nodes_cap = cap;
	}
	return 0;
}

/* Lines in p[0, n): its newlines, and one for a last line without.  Eight bytes at a
 * time: in w ^ "\n\n\n\n\n\n\n\n" a newline is a zero byte, the one byte of
 * ((w & 0x7f..) + 0x7f..) | w whose top bit is clear (no carry crosses a byte); a
 * byte at a time took a fifth of a kernel's parse. */
static size_t count_lines(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL, low7 = 0x7f7f7f7f7f7f7f7fULL;
	size_t c = 0, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w, z;

		memcpy(&w, p + i, 8);
		w ^= ones * '\n';
		z = (~(((w & low7) + low7) | w) >> 7) & ones;	/* 1 in each newline's byte */
		c += (size_t)((z * ones) >> 56);		/* their sum: at most 8 */
	}
	for (; i < n; i++)
		c += p[i] == '\n';
	return c + (n && p[n - 1] != '\n');
}

int kallsyms_load__next(struct kallsyms_load *l, struct kallsyms_block **out,
			bool may_move)
{
	size_t want = l->done + KALLSYMS_BLOCK, len, lines;
	struct kallsyms_block *blk;
	ssize_t got = 1;
	char *nl = NULL;
	int err;

	*out = NULL;
	if (l->eof)
		return 0;
	for (;;) {
		if ((err = load_room(l, 0, may_move)))
			return err;
		if (want > l->cap - 1)
			want = l->cap - 1;
		while (l->len < want && got > 0) {
			got = read(l->fd, l->text + l->len, want - l->len);
			if (got < 0 && errno == EINTR)
				got = 1;
			else if (got > 0)
				l->len += (size_t)got;
		}
		/* at the end of the file (or at an error reading it, where stdio's
		 * getline() stopped too) all that is left; else whole lines */
		if (got <= 0 || (nl = memrchr(l->text + l->done, '\n', l->len - l->done)))
			break;
		want = l->len + KALLSYMS_BLOCK;	/* a line longer than a block */
	}
	len = nl ? (size_t)(nl - (l->text + l->done)) + 1 : l->len - l->done;
	lines = count_lines(l->text + l->done, len);
	if ((err = load_room(l, lines, may_move)))
		return err;	/* 2: read again, nothing lost (the block is not out) */
	if (!(blk = calloc(1, sizeof(*blk))) ||
	    array__grow(&l->blocks, &l->blocks_cap, l->nr_blocks + 1, sizeof(*l->blocks), 16)) {
		free(blk);
		return -ENOMEM;
	}
	l->eof = got <= 0;
	if (l->eof)
		l->text[l->len] = '\0';
	*blk = (struct kallsyms_block){ .text = l->text, .off = l->done, .len = len,
					.slots = lines ? l->nodes + l->lines : NULL,
					.first = l->lines };
	l->blocks[l->nr_blocks++] = blk;
	l->done += len;
	l->lines += lines;
	*out = blk;
	return len || !l->eof ? 1 : 0;
}

void kallsyms_block__parse(struct kallsyms_block *blk)
{
	char *text = blk->text, *p = text + blk->off, *end = p + blk->len;

	for (; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		uint64_t addr;
		size_t n;
		uint8_t kind;
		char type;

		if (nl)
			*nl = '\0';	/* (the last line ends at the NUL after the text) */
		if (kallsyms_line(p, &addr, &type, &name, &n, &kind)) {
			if (!blk->t.found && n == sizeof(KALLSYMS_TEXT) - 1 &&
			    !memcmp(name, KALLSYMS_TEXT, n)) {
				blk->t.found = true;
				blk->t.addr = addr;
			}
			if (kallsyms_type_kept(type) && name[0] != '$')
				blk->slots[blk->kept++] = (struct sb_node){
					.start = addr, .end = addr, .name = (uint32_t)(name - text),
					.binding = kallsyms_binding(type), .type = kallsyms_stt(type),
					.kind = (uint8_t)(SB_KIND_KNOWN | kind),
				};
		}
		p = nl ? nl + 1 : end;
	}
}

int kallsyms_load__finish(struct kallsyms_load *l, struct symtab_builder *b,
			  struct kallsyms_text *t)
{
	size_t w = 0;

	*t = (struct kallsyms_text){ 0 };
	if (b->nr || b->pool)
		return -EINVAL;
	for (size_t i = 0; i < l->nr_blocks; i++) {
		struct kallsyms_block *blk = l->blocks[i];

		if (!t->found)
			*t = blk->t;
		if (w != blk->first && blk->kept)
			memmove(l->nodes + w, l->nodes + blk->first, blk->kept * sizeof(*l->nodes));
		w += blk->kept;
	}
	symtab_builder__exit(b);
	b->n = l->nodes;
	b->n_mapped = l->nodes_mapped;
	b->cap = l->nodes_cap;
	b->nr = b->live = w;
	b->pool = l->text;
	b->pool_mapped = l->text_mapped;
	b->pool_len = b->pool_cap = l->text ? l->len + 1 : 0;
	l->nodes = NULL;
	l->text = NULL;
	l->nodes_cap = l->cap = l->len = l->done = l->lines = 0;
	l->nodes_mapped = l->text_mapped = 0;
	return 0;
}

void kallsyms_load__close(struct kallsyms_load *l)
{
	if (l->fd >= 0)
		close(l->fd);
	for (size_t i = 0; i < l->nr_blocks; i++)
		free(l->blocks[i]);
	free(l->blocks);
	hugemem__free(l->text, l->text_mapped);
	hugemem__free(l->nodes, l->nodes_mapped);
	*l = (struct kallsyms_load){ .fd = -1 };
}

int symtab__read_kallsyms(struct symtab_builder *b, const char *path,
			  struct kallsyms_text *text)
{
	struct kallsyms_load l;
	struct kallsyms_block *blk;
	int more = 0, err = kallsyms_load__open(&l, path);

	text->found = false;
	text->addr = 0;
	while (!err && (more = kallsyms_load__next(&l, &blk, true)) > 0)
		kallsyms_block__parse(blk);
	if (!err && more < 0)
		err = more;
	if (!err)
		err = kallsyms_load__finish(&l, b, text);
	kallsyms_load__close(&l);
	return err;
}

int symtab__finish_kallsyms(struct symtab_builder *b, const struct kallsyms_text *text,
			    bool relocate, uint64_t ref_addr, struct kmod_symbols *mods)
{
	if (relocate && !text->found)
		return -ENOENT;
	if (symtab_builder__fixup_end(b, true) || symtab_builder__fixup_duplicate(b) ||
	    kallsyms_split(b, relocate ? text->addr - ref_addr : 0, mods))
		return -ENOMEM;
	return (int)b->live;
}

int symtab__load_kallsyms(struct symtab_builder *b, const char *path,
			  const char *ref_name, uint64_t ref_addr, struct kmod_symbols *mods)
{
	struct kallsyms_text text;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int err = symtab__read_kallsyms(b, path, &text);

	if (err)
		return err;
	/* Another reference symbol than _text: find its address in a second pass. */
	if (ref_name && strcmp(ref_name, KALLSYMS_TEXT)) {
		text.found = false;
		f = fopen(path, "r");
		if (!f)
			return -errno;
		while (!text.found && getline(&line, &cap, f) >= 0) {
			uint64_t addr;
			char type, *name;
			size_t len;
			uint8_t kind;

			if (kallsyms_line(line, &addr, &type, &name, &len, &kind) &&
			    !strcmp(name, ref_name)) {
				text.found = true;
				text.addr = addr;
			}
		}
		free(line);
		fclose(f);
	}
	return symtab__finish_kallsyms(b, &text, ref_name != NULL, ref_addr, mods);
}

/* ------------------------------------------------------------------------ */
/* perf-PID.map                                                              */
/* ------------------------------------------------------------------------ */

int symtab__load_perf_map(struct symtab_builder *b, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int nr = 0, err = 0;

	if (!f)
		return -errno;
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t line_len = (size_t)got, len;
		uint64_t start, size;
		char *end;

		/* perf drops the last byte, newline or not */
		if (line_len == 0)
			continue;
		line[--line_len] = '\0';
		start = strtoull(line, &end, 16);
		len = (size_t)(end - line) + 1;
		if (len + 2 >= line_len)
			continue;
		size = strtoull(line + len, &end, 16);
		len = (size_t)(end - line) + 1;
		if (len + 2 >= line_len)
			continue;
		err = symtab_builder__add(b, start, size, 1, 2, line + len,
					  strlen(line + len));
		if (err)
			break;
		nr++;
	}
	free(line);
	fclose(f);
	return err ? err : nr;
}
