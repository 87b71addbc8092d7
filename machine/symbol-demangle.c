/*
 * symbol-demangle - symbol names demangled as perf 6.1 shows them
 * (symbol__demangle()): C++ through libstdc++'s __cxa_demangle (loaded once with
 * dlopen()), its parameters and clone suffixes stripped; Rust's legacy mangling
 * decoded here.
 */
#define DIRREPORT_IN_MACHINE
#include "machine/symbol.h"

#include <ctype.h>	/* isalnum, isdigit */
#include <dlfcn.h>	/* dlopen, dlsym: __cxa_demangle from libstdc++ */
#include <pthread.h>	/* pthread_once */
#include <stdlib.h>	/* free, malloc */
#include <string.h>	/* memcmp, memcpy, memmove, strchr, strlen, strncmp, strndup, strstr */
#include "banned.h"

/* ------------------------------------------------------------------------ */
/* Demangling                                                                */
/* ------------------------------------------------------------------------ */

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static pthread_once_t demangle_once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn cxa_demangle;	/* set once, then read-only */

static void demangle_init(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	if (h)
		cxa_demangle = (cxa_demangle_fn)(uintptr_t)dlsym(h, "__cxa_demangle");
}

/* Position of the '(' matching the ')' at s[close]; SIZE_MAX if unbalanced. */
static size_t match_open_paren(const char *s, size_t close)
{
	int depth = 0;

	for (size_t i = close + 1; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return SIZE_MAX;
}

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && !memcmp(s + n - k, suf, k);
}

/* Length of a trailing " [clone .xxx]" group, 0 if none. */
static size_t clone_suffix_len(const char *s, size_t n)
{
	size_t i;

	if (!n || s[n - 1] != ']')
		return 0;
	for (i = n - 1; i-- > 0;)
		if (s[i] == '[')
			break;
	if (i == SIZE_MAX || i == 0 || s[i - 1] != ' ' || strncmp(s + i, "[clone ", 7))
		return 0;
	return n - (i - 1);
}

/* Length of the operator symbol at s ("<<=", "->", "<", ...; longest match). */
static size_t operator_len(const char *s)
{
	static const char *const ops[] = {
		"<<=", ">>=", "->*", "<=>", "<<", ">>", "<=", ">=", "==", "!=", "&&",
		"||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->",
		"+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "=", "<", ">", ",",
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(s, ops[i], strlen(ops[i])))
			return strlen(ops[i]);
	return 0;
}

/*
 * Index where the top-level name starts in "RET NAME": the last space outside
 * brackets, not counting the space inside "operator new" etc.  0 if none.
 */
static size_t name_start(const char *s, size_t n)
{
	int depth = 0;
	size_t start = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!strncmp(s + i, "operator", 8) &&
		    (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ') &&
		    !(isalnum((unsigned char)s[i + 8]) || s[i + 8] == '_')) {
			/* skip the operator token so its <, >, ( and spaces do not count */
			i += 8;
			if (s[i] == ' ') {		/* new, delete, conversions */
				i++;
				while (i < n && s[i] != ' ' && s[i] != '(' && s[i] != '<' &&
				       s[i] != '[')
					i++;
				if (!strncmp(s + i, "[]", 2))
					i += 2;
			} else if (!strncmp(s + i, "()", 2) || !strncmp(s + i, "[]", 2)) {
				i += 2;
			} else {
				i += operator_len(s + i);
				if (s[i] == ' ' && s[i + 1] == '<')	/* "operator<< <T>" */
					i++;
			}
			i--;
			continue;
		}
		if (c == '(' || c == '<' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == '>' || c == ']' || c == '}')
			depth--;
		else if (c == ' ' && depth == 0)
			start = i + 1;
	}
	return start;
}

/* Reduce __cxa_demangle's full text to what cplus_demangle prints without params. */
static void strip_params(char *s)
{
	size_t n = strlen(s), k, open;
	static const char *const quals[] = {
		" const", " volatile", " &&", " &", " restrict", " noexcept",
		" transaction_safe",
	};
	bool again = true;

	while ((k = clone_suffix_len(s, n)) != 0)
		n -= k;
	while (again) {
		again = false;
		for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			if (ends_with(s, n, quals[i])) {
				n -= strlen(quals[i]);
				again = true;
			}
		}
	}
	if (!n || s[n - 1] != ')') {
		s[n] = '\0';
		return;
	}
	open = match_open_paren(s, n - 1);
	if (open == SIZE_MAX || open == 0) {
		s[n] = '\0';
		return;
	}
	n = open;
	/* A return type is printed only for template functions: NAME ends with '>'. */
	if (s[n - 1] == '>') {
		k = name_start(s, n);
		if (k) {
			memmove(s, s + k, n - k);
			n -= k;
		}
	}
	s[n] = '\0';
}

/* One legacy-Rust escape "$..$" at e (len bytes left); 0 if not one. */
static char rust_escape(const char *e, size_t len, size_t *used)
{
	static const struct { const char *code; char c; } tab[] = {
		{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
		{ "GT", '>' }, { "LP", '(' }, { "RP", ')' },
	};
	size_t n = 0;
	char c = 0;

	if (len < 3 || e[0] != '$')
		return 0;
	e++, len--;
	if (e[0] == 'C') {
		n = 1;
		c = ',';
	} else if (len > 2) {
		n = 2;
		for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (e[0] == tab[i].code[0] && e[1] == tab[i].code[1])
				c = tab[i].c;
		if (e[0] == 'u' && len > 3) {
			const char *hex = "0123456789abcdef";
			const char *hi = e[1] ? strchr(hex, e[1]) : NULL;
			const char *lo = e[2] ? strchr(hex, e[2]) : NULL;

			n = 3;
			if (!hi || !lo || hi - hex > 7 || (hi - hex) * 16 + (lo - hex) < 0x20)
				return 0;
			c = (char)((hi - hex) * 16 + (lo - hex));
		}
	}
	if (!c || len <= n || e[n] != '$')
		return 0;
	*used = n + 2;
	return c;
}

/* Append one legacy-Rust identifier, unescaped, to out (enough room guaranteed). */
static void rust_ident(const char *id, size_t len, char *out, size_t *o)
{
	if (len >= 2 && id[0] == '_' && id[1] == '$')	/* XID_Start padding */
		id++, len--;
	while (len > 0) {
		size_t n = 1;
		char c;

		if (id[0] == '$') {
			c = rust_escape(id, len, &n);
			if (!c) {	/* unknown escape: the rest verbatim */
				memcpy(out + *o, id, len);
				*o += len;
				return;
			}
			out[(*o)++] = c;
		} else if (id[0] == '.') {
			if (len >= 2 && id[1] == '.') {
				memcpy(out + *o, "::", 2);
				*o += 2;
				n = 2;
			} else {
				out[(*o)++] = '.';
			}
		} else {
			out[(*o)++] = id[0];
		}
		id += n;
		len -= n;
	}
}

/* "h" + 16 lowercase hex digits with at least 5 distinct digits (libiberty's test). */
static bool rust_is_hash(const char *id, size_t len)
{
	unsigned seen = 0, count = 0;

	if (len != 17 || id[0] != 'h')
		return false;
	for (size_t i = 1; i < 17; i++) {
		const char *hex = "0123456789abcdef", *p = id[i] ? strchr(hex, id[i]) : NULL;

		if (!p)
			return false;
		seen |= 1u << (p - hex);
	}
	for (; seen; seen >>= 1)
		count += seen & 1;
	return count >= 5;
}

/*
 * Legacy Rust symbols (_ZN...17h<hash>E) as libiberty's cplus_demangle prints them
 * without DMGL_VERBOSE: path components joined by "::", escapes decoded, the hash
 * dropped.  NULL if name is not one.
 */
static char *rust_legacy_demangle(const char *name)
{
	const char *p = name + 3, *end = strstr(name, ".llvm.");
	const char *last = NULL;
	size_t last_len = 0, o = 0;
	char *out;

	if (!end)	/* an LTO ".llvm.<n>" suffix is not printed */
		end = name + strlen(name);
	for (const char *c = p; c < end; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_$.:@", *c))
			return NULL;
	if (end - p < 20 || end[-1] != 'E' || memcmp(end - 20, "17h", 3))
		return NULL;
	end--;	/* the E */
	out = malloc((size_t)(end - p) * 2 + 1);
	if (!out)
		return NULL;
	while (p < end) {
		size_t len = 0;

		if (!isdigit((unsigned char)*p))
			goto fail;
		while (p < end && isdigit((unsigned char)*p))
			len = len * 10 + (size_t)(*p++ - '0');
		if (len == 0 || len > (size_t)(end - p))
			goto fail;
		if (p + len == end) {	/* the hash */
			last = p;
			last_len = len;
		} else {
			if (o)
				memcpy(out + o, "::", 2), o += 2;
			rust_ident(p, len, out, &o);
		}
		p += len;
	}
	if (!last || !rust_is_hash(last, last_len) || !o)
		goto fail;
	out[o] = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

char *symbol__demangle(const char *name)
{
	char *full;
	int status = -1;
	bool special;

	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	/* libiberty tries Rust's legacy scheme before C++ (both start with _ZN) */
	if (name[2] == 'N') {
		char *r = rust_legacy_demangle(name);

		if (r)
			return r;
	}
	pthread_once(&demangle_once, demangle_init);
	if (!cxa_demangle)
		return NULL;
	/* special names (vtable for, thunks, guard variables, transaction clones...)
	 * are printed whole, their inner encoding with parameters */
	special = name[2] == 'T' || name[2] == 'G';
	full = cxa_demangle(name, NULL, NULL, &status);
	if (!full || status != 0) {
		/*
		 * cplus_demangle without parameters ignores whatever follows the name
		 * (e.g. an unusual ".suffix"); retry without the suffix.
		 */
		const char *dot = strchr(name, '.');
		char *cut;

		free(full);
		if (!dot)
			return NULL;
		cut = strndup(name, (size_t)(dot - name));
		if (!cut)
			return NULL;
		full = cxa_demangle(cut, NULL, NULL, &status);
		free(cut);
		if (!full || status != 0) {
			free(full);
			return NULL;
		}
	}
	if (!special)
		strip_params(full);
	return full;
}
