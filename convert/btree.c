/*
 * btree - bulk loading of an SQLite rowid table (see btree.h).
 */
#include "convert/btree.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* memcpy, memset */
#include <sys/stat.h>	/* fstat */
#include <unistd.h>	/* pread, pwrite */

#include "banned.h"

#define LEAF_HDR 8		/* table leaf page header bytes */
#define INTERIOR_HDR 12		/* table interior page header bytes */
#define PAGE_LEAF_TABLE 0x0D
#define PAGE_INTERIOR_TABLE 0x05
#define LOCK_BYTE_OFFSET 0x40000000ULL	/* SQLite's PENDING_BYTE: its page stays unused */
#define CHUNK_PAGES 256		/* leaf pages per allocation */
#define VARINT_MAX 9

/* A run of finished leaf pages. */
struct leaf_chunk {
	struct leaf_chunk *next;
	uint32_t nr;			/* pages used */
	unsigned char *pages;		/* CHUNK_PAGES * page_size bytes, owned */
};

struct btree_builder {
	uint32_t page_size, usable;	/* bytes; usable = page_size - reserved */
	int format4;
	struct leaf_chunk *head, *tail;	/* owned list of finished leaves */
	uint64_t nr_leaves;
	int64_t *leaf_max;		/* owned: largest rowid of each finished leaf */
	size_t leaf_max_cap;
	unsigned char *cur;		/* the leaf being filled (in a chunk) */
	uint32_t cur_cells, cur_content;	/* cells, start of the cell content area */
	int64_t last_rowid;
	uint64_t nr_rows;
};

static size_t put_varint(unsigned char *p, uint64_t v)
{
	unsigned char tmp[VARINT_MAX];
	size_t n = 0;

	if (v < 0x80) {		/* the common cases: record sizes, small rowids */
		p[0] = (unsigned char)v;
		return 1;
	}
	if (v < 0x4000) {
		p[0] = (unsigned char)(0x80 | v >> 7);
		p[1] = (unsigned char)(v & 0x7f);
		return 2;
	}

	if (v > 0x00ffffffffffffffULL) {	/* 9 bytes: the last one holds 8 bits */
		p[8] = (unsigned char)v;
		v >>= 8;
		for (int i = 7; i >= 0; i--) {
			p[i] = (unsigned char)((v & 0x7f) | 0x80);
			v >>= 7;
		}
		return 9;
	}
	do {
		tmp[n++] = (unsigned char)((v & 0x7f) | 0x80);
		v >>= 7;
	} while (v);
	tmp[0] &= 0x7f;
	for (size_t i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

static void put_be16(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* SQLite's serial type for an integer needing `bits` significant bits plus a sign
 * bit (0..64 -> types 1..6), and the body bytes of each type. */
static const uint8_t type_of_bits[65] = {
	1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
	4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
};
static const uint8_t len_of_type[7] = { 0, 1, 2, 3, 4, 6, 8 };

int btree_builder__new(struct btree_builder **out, uint32_t page_size, uint32_t reserved,
		       int format4)
{
	struct btree_builder *b;

	*out = NULL;
	if (page_size < 512 || page_size > 65536 || (page_size & (page_size - 1)) ||
	    reserved > 255 || page_size - reserved < 480)
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->page_size = page_size;
	b->usable = page_size - reserved;
	b->format4 = format4;
	*out = b;
	return 0;
}

void btree_builder__delete(struct btree_builder *b)
{
	struct leaf_chunk *c, *next;

	if (!b)
		return;
	for (c = b->head; c; c = next) {
		next = c->next;
		free(c->pages);
		free(c);
	}
	free(b->leaf_max);
	free(b);
}

uint64_t btree_builder__nr_rows(const struct btree_builder *b)
{
	return b->nr_rows;
}

/* Write the header of the leaf being filled: it is then complete. */
static void finish_leaf(struct btree_builder *b)
{
	unsigned char *p = b->cur;

	p[0] = PAGE_LEAF_TABLE;
	put_be16(p + 1, 0);
	put_be16(p + 3, b->cur_cells);
	put_be16(p + 5, b->cur_content == 65536 ? 0 : b->cur_content);
	p[7] = 0;
	b->cur = NULL;
}

static int new_leaf(struct btree_builder *b)
{
	struct leaf_chunk *c = b->tail;

	if (b->nr_leaves == b->leaf_max_cap) {
		size_t cap = b->leaf_max_cap ? b->leaf_max_cap * 2 : 1024;
		int64_t *v = realloc(b->leaf_max, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->leaf_max = v;
		b->leaf_max_cap = cap;
	}
	if (!c || c->nr == CHUNK_PAGES) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return -ENOMEM;
		c->pages = malloc((size_t)CHUNK_PAGES * b->page_size);
		if (!c->pages) {
			free(c);
			return -ENOMEM;
		}
		if (b->tail)
			b->tail->next = c;
		else
			b->head = c;
		b->tail = c;
	}
	b->cur = c->pages + (size_t)c->nr++ * b->page_size;
	memset(b->cur, 0, b->page_size);
	b->nr_leaves++;
	b->cur_cells = 0;
	b->cur_content = b->usable;
	return 0;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	if (v > 0x00ffffffffffffffULL)
		return 9;
	while (v >>= 7)
		n++;
	return n;
}

int btree_builder__add(struct btree_builder *b, const int64_t *v, size_t n)
{
	/* the record: header (its size, one serial type per column), then the body */
	unsigned char rec[1 + BTREE_MAX_COLS + BTREE_MAX_COLS * 8 + 8];
	unsigned char *hdr = rec + 1, *body = rec + 1 + n, *p;
	size_t body_len = 0, rec_len, len;
	int err;

	if (n < 1 || n > BTREE_MAX_COLS || (b->nr_rows && v[0] <= b->last_rowid))
		return -EINVAL;
	rec[0] = (unsigned char)(1 + n);
	hdr[0] = 0;		/* the INTEGER PRIMARY KEY is the rowid, stored as NULL */
	for (size_t i = 1; i < n; i++) {
		uint64_t x = (uint64_t)v[i], u = v[i] < 0 ? ~x : x, be;
		unsigned type, l;

		if (x <= 1 && b->format4) {
			hdr[i] = (unsigned char)(8 + x);	/* 0 and 1 need no body */
			continue;
		}
		type = type_of_bits[u ? 65 - __builtin_clzll(u) : 1];
		l = len_of_type[type];
		hdr[i] = (unsigned char)type;
		/* big-endian, the low l bytes: shifted to the top, all 8 stored (rec has
		 * room), l kept */
		be = __builtin_bswap64(x << (64 - 8 * l));
		memcpy(body + body_len, &be, 8);
		body_len += l;
	}
	rec_len = 1 + n + body_len;
	len = varint_len(rec_len) + varint_len((uint64_t)v[0]) + rec_len;

	if (b->cur && LEAF_HDR + 2 * (b->cur_cells + 1) + len > b->cur_content) {
		b->leaf_max[b->nr_leaves - 1] = b->last_rowid;
		finish_leaf(b);
	}
	if (!b->cur && (err = new_leaf(b)))
		return err;
	b->cur_content -= (uint32_t)len;
	p = b->cur + b->cur_content;
	p += put_varint(p, rec_len);
	p += put_varint(p, (uint64_t)v[0]);
	memcpy(p, rec, rec_len);
	put_be16(b->cur + LEAF_HDR + 2 * b->cur_cells, b->cur_content);
	b->cur_cells++;
	b->last_rowid = v[0];
	b->nr_rows++;
	return 0;
}

/* ---- writing ------------------------------------------------------------------- */

struct file_state {
	int fd;
	uint32_t page_size;
	uint32_t next;		/* next page number to allocate */
	uint32_t lock_page;	/* page holding LOCK_BYTE_OFFSET */
};

static uint32_t alloc_page(struct file_state *f)
{
	if (f->next == f->lock_page)
		f->next++;
	return f->next++;
}

static int write_page(const struct file_state *f, uint32_t pgno, const void *p, size_t n)
{
	off_t off = (off_t)(pgno - 1) * f->page_size;
	const unsigned char *c = p;

	while (n) {
		ssize_t w = pwrite(f->fd, c, n, off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += w;
		n -= (size_t)w;
		off += w;
	}
	return 0;
}

/* Write the finished leaves, consecutive runs at once; pgnos[] receives their pages. */
static int write_leaves(struct btree_builder *b, struct file_state *f, uint32_t *pgnos)
{
	uint64_t k = 0;
	int err;

	for (struct leaf_chunk *c = b->head; c; c = c->next) {
		uint32_t i = 0;

		while (i < c->nr) {
			uint32_t first = alloc_page(f), run = 1;

			pgnos[k++] = first;
			while (i + run < c->nr && f->next != f->lock_page) {
				pgnos[k++] = alloc_page(f);
				run++;
			}
			err = write_page(f, first, c->pages + (size_t)i * b->page_size,
					 (size_t)run * b->page_size);
			if (err)
				return err;
			i += run;
		}
	}
	return 0;
}

/* One interior node over children [i, i + k): k - 1 cells and the right pointer. */
static void build_interior(unsigned char *p, uint32_t usable, const uint32_t *child,
			   const int64_t *max, size_t k)
{
	uint32_t content = usable;
	unsigned char cell[4 + VARINT_MAX];

	memset(p, 0, usable);
	p[0] = PAGE_INTERIOR_TABLE;
	for (size_t j = 0; j + 1 < k; j++) {
		size_t len;

		put_be32(cell, child[j]);
		len = 4 + put_varint(cell + 4, (uint64_t)max[j]);
		content -= (uint32_t)len;
		memcpy(p + content, cell, len);
		put_be16(p + INTERIOR_HDR + 2 * j, content);
	}
	put_be16(p + 3, (uint32_t)(k - 1));
	put_be16(p + 5, content == 65536 ? 0 : content);
	put_be32(p + 8, child[k - 1]);
}

/*
 * Build the levels above n children until one node is left, which goes to the root.
 * Children are spread evenly: every node has at least two, and no more than fit with
 * the widest key.
 */
static int write_interior(struct btree_builder *b, struct file_state *f, uint32_t *child,
			  int64_t *max, size_t n, uint32_t root, unsigned char *page)
{
	size_t per = (b->usable - INTERIOR_HDR) / (2 + 4 + VARINT_MAX) + 1;
	int err;

	for (;;) {
		size_t nodes = (n + per - 1) / per, at = 0;

		for (size_t i = 0; i < nodes; i++) {
			size_t k = n / nodes + (i < n % nodes);
			uint32_t pg = nodes == 1 ? root : alloc_page(f);

			build_interior(page, b->usable, child + at, max + at, k);
			if ((err = write_page(f, pg, page, b->page_size)))
				return err;
			/* this level's nodes become the next level's children, in place */
			child[i] = pg;
			max[i] = max[at + k - 1];
			at += k;
		}
		if (nodes == 1)
			return 0;
		n = nodes;
	}
}

static int read_header(int fd, unsigned char hdr[100])
{
	ssize_t r = pread(fd, hdr, 100, 0);

	if (r < 0)
		return -errno;
	return r == 100 && !memcmp(hdr, "SQLite format 3", 16) ? 0 : -EIO;
}

int btree_builder__write(struct btree_builder *b, int fd, uint32_t root)
{
	unsigned char hdr[100], *page = NULL;
	uint32_t *pgnos = NULL, count, change;
	struct file_state f = { .fd = fd, .page_size = b->page_size };
	struct stat st;
	int err;

	if ((err = read_header(fd, hdr)))
		return err;
	if ((hdr[16] << 8 | hdr[17]) != (b->page_size == 65536 ? 1 : (int)b->page_size) ||
	    b->page_size - hdr[20] != b->usable || fstat(fd, &st))
		return -EIO;
	change = get_be32(hdr + 24);
	count = get_be32(hdr + 28);
	if (!count || get_be32(hdr + 92) != change)
		count = (uint32_t)(st.st_size / b->page_size);
	if (root < 2 || root > count)
		return -EIO;
	f.next = count + 1;
	f.lock_page = (uint32_t)(LOCK_BYTE_OFFSET / b->page_size) + 1;
	if (b->cur) {
		b->leaf_max[b->nr_leaves - 1] = b->last_rowid;
		finish_leaf(b);
	}
	if (b->nr_leaves == 0)
		return 0;	/* the root stays the empty leaf SQLite made */
	if (b->nr_leaves == 1) {
		err = write_page(&f, root, b->head->pages, b->page_size);
	} else {
		pgnos = malloc(b->nr_leaves * sizeof(*pgnos));
		page = malloc(b->page_size);
		err = pgnos && page ? write_leaves(b, &f, pgnos) : -ENOMEM;
		if (!err)
			err = write_interior(b, &f, pgnos, b->leaf_max, b->nr_leaves, root,
					     page);
		count = f.next - 1;
	}
	free(pgnos);
	free(page);
	if (err)
		return err;
	/* the in-header page count is valid only while version-valid-for equals the
	 * change counter */
	put_be32(hdr + 24, change + 1);
	put_be32(hdr + 28, count);
	put_be32(hdr + 92, change + 1);
	return write_page(&f, 1, hdr, 100);
}
