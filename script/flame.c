/*
 * flame - the flame graph's tree, layout, colours and SVG (see flame.h).
 */
#include "script/flame.h"

#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, realloc, free */
#include <string.h>	/* memchr, memcmp, strlen */

#include <libxml/xmlwriter.h>	/* xmlTextWriter* */

#include "util/outpath.h"

#include "banned.h"

struct flame_node {
	size_t name_off;	/* bytes into the name pool */
	size_t name_len;
	uint64_t count;		/* samples */
	uint64_t x;		/* after layout */
	uint32_t parent, first_child, last_child, next;	/* indices; 0 = none */
	uint32_t depth;
	uint8_t kind;
};

struct script_flame {
	struct flame_node *v;	/* owned; v[0] is the root */
	size_t nr, cap;
	struct script_buf names;	/* owned name pool */
};

int script_flame__new(struct script_flame **out)
{
	struct script_flame *f = calloc(1, sizeof(*f));

	if (!f || !(f->v = calloc(64, sizeof(*f->v)))) {
		free(f);
		*out = NULL;
		return -ENOMEM;
	}
	f->cap = 64;
	f->nr = 1;
	if (script_buf__put(&f->names, "all", 3)) {
		script_flame__delete(f);
		*out = NULL;
		return -ENOMEM;
	}
	f->v[0].name_len = 3;
	*out = f;
	return 0;
}

void script_flame__delete(struct script_flame *f)
{
	if (!f)
		return;
	free(f->v);
	script_buf__exit(&f->names);
	free(f);
}

uint64_t script_flame__samples(const struct script_flame *f)
{
	return f->v[0].count;
}

size_t script_flame__nr_frames(const struct script_flame *f)
{
	return f->nr;
}

static bool node_is(const struct script_flame *f, uint32_t i, const char *s, size_t n,
		    enum script_frame_kind kind)
{
	const struct flame_node *x = &f->v[i];

	return x->kind == kind && x->name_len == n && !memcmp(f->names.p + x->name_off, s, n);
}

/* The child of p named s (n bytes) of this kind, added when missing; 0 on error. */
static uint32_t child(struct script_flame *f, uint32_t p, const char *s, size_t n,
		      enum script_frame_kind kind, int *err)
{
	struct flame_node *x;
	uint32_t c = f->v[p].last_child;

	/* sorted input: a match is the last child (see flame.h) */
	if (c && !node_is(f, c, s, n, kind))
		for (c = f->v[p].first_child; c && !node_is(f, c, s, n, kind); c = f->v[c].next)
			;
	if (c)
		return c;
	if (f->nr >= UINT32_MAX) {
		*err = -EOVERFLOW;
		return 0;
	}
	if (f->nr == f->cap) {
		x = realloc(f->v, f->cap * 2 * sizeof(*x));
		if (!x) {
			*err = -ENOMEM;
			return 0;
		}
		f->v = x;
		f->cap *= 2;
	}
	c = (uint32_t)f->nr;
	x = &f->v[c];
	*x = (struct flame_node){ .name_off = f->names.len, .name_len = n, .parent = p,
				  .depth = f->v[p].depth + 1, .kind = (uint8_t)kind };
	if (script_buf__put(&f->names, s, n)) {
		*err = -ENOMEM;
		return 0;
	}
	f->nr++;
	if (f->v[p].last_child)
		f->v[f->v[p].last_child].next = c;
	else
		f->v[p].first_child = c;
	f->v[p].last_child = c;
	return c;
}

int script_flame__add(struct script_flame *f, const char *stack, size_t len,
		      uint64_t count)
{
	uint32_t cur = 0;
	int err = 0;

	f->v[0].count += count;
	for (size_t i = 0; i <= len && len;) {
		const char *semi = memchr(stack + i, ';', len - i);
		size_t e = semi ? (size_t)(semi - stack) : len, bare;
		enum script_frame_kind kind = script_fold__part_kind(stack + i, e - i, &bare);

		cur = child(f, cur, stack + i, bare, kind, &err);
		if (!cur)
			return err;
		f->v[cur].count += count;
		i = e + 1;
	}
	return 0;
}

void script_flame__layout(struct script_flame *f)
{
	/* a parent's index is below its children's: index order reaches every parent
	 * before its children */
	f->v[0].x = 0;
	for (size_t i = 0; i < f->nr; i++) {
		uint64_t x = f->v[i].x;

		for (uint32_t c = f->v[i].first_child; c; c = f->v[c].next) {
			f->v[c].x = x;
			x += f->v[c].count;
		}
	}
}

int script_flame__frame(const struct script_flame *f, size_t i,
			struct script_flame_frame *out)
{
	const struct flame_node *x;

	if (i >= f->nr)
		return -ERANGE;
	x = &f->v[i];
	*out = (struct script_flame_frame){ .name = f->names.p + x->name_off,
					    .name_len = x->name_len, .kind = x->kind,
					    .x = x->x, .n = x->count, .depth = x->depth,
					    .parent = x->parent };
	return 0;
}

/* ---- colours and labels ------------------------------------------------------------ */

/* flamegraph.pl's namehash(): early characters weigh more; 0..1.  Its "module`"
 * prefix rule is left out (folded names have no module). */
static double name_hash(const char *s, size_t n, bool reverse)
{
	double vector = 0, weight = 1, max = 1;
	unsigned mod = 10;

	for (size_t k = 0; k < n && mod <= 12; k++) {
		unsigned char c = (unsigned char)s[reverse ? n - 1 - k : k];

		vector += (double)(c % mod) / (double)(mod - 1) * weight;
		mod++;
		max += weight;
		weight *= 0.70;
	}
	return 1 - vector / max;
}

void script_flame__color(const char *name, size_t len, enum script_frame_kind kind,
			 uint8_t rgb[3])
{
	double v1 = name_hash(name, len, false), v2 = name_hash(name, len, true);

	switch (kind) {
	case SCRIPT_KIND_KERNEL:	/* flamegraph.pl's "orange" */
		rgb[0] = (uint8_t)(190 + (int)(65 * v1));
		rgb[1] = (uint8_t)(90 + (int)(65 * v1));
		rgb[2] = 0;
		break;
	case SCRIPT_KIND_OTHER:		/* its "green" (its java palette's JIT colour) */
		rgb[0] = (uint8_t)(50 + (int)(60 * v1));
		rgb[1] = (uint8_t)(180 + (int)(55 * v1));
		rgb[2] = (uint8_t)(50 + (int)(60 * v2));
		break;
	default:			/* its "red" (its java palette's user code) */
		rgb[0] = (uint8_t)(200 + (int)(55 * v1));
		rgb[1] = (uint8_t)(50 + (int)(80 * v2));
		rgb[2] = (uint8_t)(50 + (int)(80 * v2));
		break;
	}
}

int script_flame__fit(struct script_buf *b, const char *name, size_t len, double width_px)
{
	double room = (width_px - 3) / SCRIPT_FLAME_CHAR_WIDTH;
	size_t fit = room < 3 ? 0 : (size_t)room, chars = 0, cut = 0;

	if (fit < 3)
		return 0;
	for (size_t i = 0; i < len; i++)
		chars += ((unsigned char)name[i] & 0xc0) != 0x80;
	if (chars <= fit)
		return script_buf__put(b, name, len);
	/* the first fit - 2 characters */
	for (size_t k = 0; cut < len; cut++) {
		if (((unsigned char)name[cut] & 0xc0) != 0x80 && k++ == fit - 2)
			break;
	}
	if (script_buf__put(b, name, cut))
		return -ENOMEM;
	return script_buf__put(b, "..", 2);
}

/* ---- the SVG ---------------------------------------------------------------------- */

/* The embedded script (no network, no external file): zoom, search, reset, details.
 * A frame's name is its <title> up to the last " (". */
static const char flame_js[] =
"\"use strict\";\n"
"var svg, frames, details, matchedtxt, unzoombtn, searchbtn, total, W, XPAD, CW;\n"
"var bar, foot, searching = false, zoomed = null;\n"
"/* a graph taller than the window: the controls stay in sight (the bar on top,\n"
" * the details line at the bottom) wherever it is scrolled */\n"
"function pin() {\n"
"  var y = window.scrollY || 0, h = +svg.getAttribute(\"height\");\n"
"  bar.setAttribute(\"transform\", \"translate(0,\" + y + \")\");\n"
"  foot.setAttribute(\"transform\", \"translate(0,\" +\n"
"    Math.min(0, y + window.innerHeight - h) + \")\");\n"
"}\n"
"function init(evt) {\n"
"  svg = document.documentElement;\n"
"  bar = document.getElementById(\"bar\");\n"
"  foot = document.getElementById(\"foot\");\n"
"  frames = document.getElementById(\"frames\");\n"
"  details = document.getElementById(\"details\").firstChild;\n"
"  matchedtxt = document.getElementById(\"matched\");\n"
"  unzoombtn = document.getElementById(\"unzoom\");\n"
"  searchbtn = document.getElementById(\"search\");\n"
"  total = +svg.dataset.total; W = +svg.dataset.width;\n"
"  XPAD = +svg.dataset.xpad; CW = +svg.dataset.cw;\n"
"  frames.addEventListener(\"click\", function (e) {\n"
"    var g = frame_of(e.target); if (g) zoom(g); });\n"
"  frames.addEventListener(\"mouseover\", function (e) {\n"
"    var g = frame_of(e.target);\n"
"    if (g) details.nodeValue = \"Function: \" + g.querySelector(\"title\").textContent; });\n"
"  frames.addEventListener(\"mouseout\", function () { details.nodeValue = \" \"; });\n"
"  unzoombtn.addEventListener(\"click\", unzoom);\n"
"  searchbtn.addEventListener(\"click\", search_prompt);\n"
"  window.addEventListener(\"keydown\", function (e) {\n"
"    if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {\n"
"      e.preventDefault(); search_prompt();\n"
"    } else if (e.key === \"Escape\") { unzoom(); reset_search(); }\n"
"  });\n"
"  var s = new URLSearchParams(window.location.search).get(\"s\");\n"
"  if (s) search(s);\n"
"  window.addEventListener(\"scroll\", pin);\n"
"  window.addEventListener(\"resize\", pin);\n"
"  /* a flame graph opens on its root (at the bottom), where the wide frames\n"
"   * are; deep stacks (perf's 127-frame chains) are towers above it */\n"
"  if (svg.dataset.inverted !== \"1\") window.scrollTo(0, +svg.getAttribute(\"height\"));\n"
"  pin();\n"
"}\n"
"function frame_of(e) {\n"
"  while (e && e !== frames) {\n"
"    if (e.classList && e.classList.contains(\"f\")) return e;\n"
"    e = e.parentNode;\n"
"  }\n"
"  return null;\n"
"}\n"
"function name_of(g) {\n"
"  var t = g.querySelector(\"title\").textContent;\n"
"  return t.substring(0, t.lastIndexOf(\" (\"));\n"
"}\n"
"function label(name, w) {\n"
"  var fit = Math.floor((w - 3) / CW);\n"
"  if (fit < 3) return \"\";\n"
"  var chars = Array.from(name);\n"
"  if (chars.length <= fit) return name;\n"
"  return chars.slice(0, fit - 2).join(\"\") + \"..\";\n"
"}\n"
"function place(g, px, pw) {\n"
"  var r = g.querySelector(\"rect\"), t = g.querySelector(\"text\");\n"
"  r.setAttribute(\"x\", (XPAD + px).toFixed(1));\n"
"  r.setAttribute(\"width\", pw.toFixed(1));\n"
"  t.setAttribute(\"x\", (XPAD + px + 3).toFixed(1));\n"
"  t.textContent = label(name_of(g), pw);\n"
"}\n"
"function zoom(z) {\n"
"  var zx = +z.dataset.x, zn = +z.dataset.n, zd = +z.dataset.d;\n"
"  var list = frames.children;\n"
"  zoomed = z;\n"
"  unzoombtn.classList.remove(\"hide\");\n"
"  for (var i = 0; i < list.length; i++) {\n"
"    var g = list[i], x = +g.dataset.x, n = +g.dataset.n, d = +g.dataset.d;\n"
"    if (d < zd && x <= zx && x + n >= zx + zn) {\n"
"      g.classList.remove(\"hide\"); g.classList.add(\"parent\"); place(g, 0, W);\n"
"    } else if (d >= zd && x >= zx && x + n <= zx + zn) {\n"
"      g.classList.remove(\"hide\", \"parent\");\n"
"      place(g, (x - zx) / zn * W, n / zn * W);\n"
"    } else {\n"
"      g.classList.add(\"hide\");\n"
"    }\n"
"  }\n"
"}\n"
"function unzoom() {\n"
"  var list = frames.children;\n"
"  if (!zoomed) return;\n"
"  zoomed = null;\n"
"  unzoombtn.classList.add(\"hide\");\n"
"  for (var i = 0; i < list.length; i++) {\n"
"    var g = list[i];\n"
"    g.classList.remove(\"hide\", \"parent\");\n"
"    place(g, +g.dataset.x / total * W, +g.dataset.n / total * W);\n"
"  }\n"
"}\n"
"function search_prompt() {\n"
"  if (searching) { reset_search(); return; }\n"
"  var term = prompt(\"Enter a search term (a regular expression, e.g. ^ext4_)\", \"\");\n"
"  if (term) search(term);\n"
"}\n"
"function reset_search() {\n"
"  var list = frames.querySelectorAll(\".match\");\n"
"  for (var i = 0; i < list.length; i++) {\n"
"    var r = list[i].querySelector(\"rect\");\n"
"    r.setAttribute(\"fill\", r.dataset.fill);\n"
"    list[i].classList.remove(\"match\");\n"
"  }\n"
"  searching = false;\n"
"  searchbtn.firstChild.nodeValue = \"Search\";\n"
"  matchedtxt.firstChild.nodeValue = \" \";\n"
"}\n"
"function search(term) {\n"
"  var re, list = frames.children, spans = [], sum = 0, end = -1;\n"
"  try { re = new RegExp(term); }\n"
"  catch (e) { re = new RegExp(term.replace(/[.*+?^${}()|[\\]\\\\]/g, \"\\\\$&\")); }\n"
"  reset_search();\n"
"  for (var i = 0; i < list.length; i++) {\n"
"    var g = list[i];\n"
"    if (!re.test(name_of(g))) continue;\n"
"    var r = g.querySelector(\"rect\");\n"
"    r.dataset.fill = r.getAttribute(\"fill\");\n"
"    r.setAttribute(\"fill\", \"rgb(230,0,230)\");\n"
"    g.classList.add(\"match\");\n"
"    spans.push([+g.dataset.x, +g.dataset.x + +g.dataset.n]);\n"
"  }\n"
"  /* nested matches count once */\n"
"  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
"  for (var k = 0; k < spans.length; k++) {\n"
"    if (spans[k][0] >= end) { sum += spans[k][1] - spans[k][0]; end = spans[k][1]; }\n"
"    else if (spans[k][1] > end) { sum += spans[k][1] - end; end = spans[k][1]; }\n"
"  }\n"
"  searching = true;\n"
"  searchbtn.firstChild.nodeValue = \"Reset Search\";\n"
"  matchedtxt.firstChild.nodeValue = \"Matched: \" +\n"
"    (total ? 100 * sum / total : 0).toFixed(2) + \"%\";\n"
"}\n";

static const char flame_css[] =
"text { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
"#title { text-anchor: middle; font-size: 17px; }\n"
"#subtitle { text-anchor: middle; fill: rgb(96,96,96); }\n"
"#search, #matched { text-anchor: end; }\n"
"#search, #unzoom { cursor: pointer; fill: rgb(0,0,160); }\n"
"#search:hover, #unzoom:hover { text-decoration: underline; }\n"
".f { cursor: pointer; }\n"
".f text { pointer-events: none; }\n"
".f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
".hide { display: none; }\n"
".parent { opacity: 0.5; }\n";

/* xmlTextWriter calls return < 0 on failure: each step is checked through this. */
#define W_OK(call) do { if ((call) < 0) return -EIO; } while (0)

struct svg_geom {
	double width, height;	/* the image */
	double scale;		/* pixels per sample */
	double ypad1, ypad2;	/* above / below the frames */
	unsigned max_depth;
	bool inverted;
};

/* A name as text for XML: invalid UTF-8 bytes and control characters become '?'
 * (the writer escapes markup, but it cannot write bytes XML forbids). */
static int clean_text(struct script_buf *b, const char *s, size_t n)
{
	b->len = 0;
	if (script_buf__reserve(b, n + 1))
		return -ENOMEM;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
			   (c & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = k && i + k <= n && !(c < 0x20 || c == 0x7f) && !(k == 2 && c < 0xc2);

		for (size_t j = 1; ok && j < k; j++)
			ok = ((unsigned char)s[i + j] & 0xc0) == 0x80;
		if (!ok) {
			b->p[b->len++] = '?';
			i++;
			continue;
		}
		memcpy(b->p + b->len, s + i, k);
		b->len += k;
		i += k;
	}
	b->p[b->len] = 0;
	return 0;
}

static int write_frame(xmlTextWriterPtr w, const struct script_flame_frame *fr,
		       const struct svg_geom *g, uint64_t total, struct script_buf *tmp)
{
	double x = SCRIPT_FLAME_XPAD + (double)fr->x * g->scale, wd = (double)fr->n * g->scale;
	double y = g->inverted ? g->ypad1 + fr->depth * SCRIPT_FLAME_FRAME_HEIGHT :
		   g->height - g->ypad2 - (fr->depth + 1) * SCRIPT_FLAME_FRAME_HEIGHT;
	uint8_t rgb[3];
	size_t name_end;

	script_flame__color(fr->name, fr->name_len, fr->depth ? fr->kind : SCRIPT_KIND_USER,
			    rgb);
	if (clean_text(tmp, fr->name, fr->name_len))
		return -ENOMEM;
	name_end = tmp->len;
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "g"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "f"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "data-x", "%llu", (unsigned long long)fr->x));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "data-n", "%llu", (unsigned long long)fr->n));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "data-d", "%u", fr->depth));
	W_OK(xmlTextWriterWriteFormatElement(w, BAD_CAST "title", "%s (%llu sample%s, %.2f%%)",
					     tmp->p, (unsigned long long)fr->n,
					     fr->n == 1 ? "" : "s",
					     total ? 100.0 * (double)fr->n / (double)total : 0.0));
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "rect"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.1f", wd));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%d", SCRIPT_FLAME_FRAME_HEIGHT - 1));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "rx", BAD_CAST "2"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "fill", "rgb(%u,%u,%u)", rgb[0], rgb[1],
					       rgb[2]));
	W_OK(xmlTextWriterEndElement(w));
	/* the label after the name in the same buffer (room made first: the name is
	 * read from it while the label is appended) */
	if (script_buf__reserve(tmp, name_end + 3) ||
	    script_flame__fit(tmp, tmp->p, name_end, wd) || script_buf__put(tmp, "", 1))
		return -ENOMEM;
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "text"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x + 3));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y + 10.5));
	W_OK(xmlTextWriterWriteString(w, BAD_CAST(tmp->p + name_end)));
	W_OK(xmlTextWriterEndElement(w));
	W_OK(xmlTextWriterEndElement(w));
	return 0;
}

/* <text id=ID x y [class]>TEXT</text> */
static int write_text(xmlTextWriterPtr w, const char *id, double x, double y,
		      const char *cls, const char *text)
{
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "text"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST id));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y));
	if (cls)
		W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls));
	W_OK(xmlTextWriterWriteString(w, BAD_CAST text));
	return xmlTextWriterEndElement(w) < 0 ? -EIO : 0;
}

static int write_head(xmlTextWriterPtr w, const struct svg_geom *g, uint64_t total)
{
	W_OK(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "svg"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "1.1"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.0f", g->width));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.0f", g->height));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "viewBox", "0 0 %.0f %.0f", g->width,
					       g->height));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns",
					 BAD_CAST "http://www.w3.org/2000/svg"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "onload", BAD_CAST "init(evt)"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "data-total", "%llu",
					       (unsigned long long)total));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "data-width", "%.0f",
					       g->width - 2 * SCRIPT_FLAME_XPAD));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "data-xpad", "%d", SCRIPT_FLAME_XPAD));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "data-cw", "%.2f", SCRIPT_FLAME_CHAR_WIDTH));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "data-inverted",
					 BAD_CAST(g->inverted ? "1" : "0")));
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "style"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST "text/css"));
	W_OK(xmlTextWriterWriteCDATA(w, BAD_CAST flame_css));
	W_OK(xmlTextWriterEndElement(w));
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "script"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST "text/ecmascript"));
	W_OK(xmlTextWriterWriteCDATA(w, BAD_CAST flame_js));
	W_OK(xmlTextWriterEndElement(w));
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "rect"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "100%"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "height", BAD_CAST "100%"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST "rgb(248,248,240)"));
	W_OK(xmlTextWriterEndElement(w));
	return 0;
}

/* <rect x=0 y width=100% height fill=background/> */
static int write_band(xmlTextWriterPtr w, double y, double height)
{
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "rect"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "100%"));
	W_OK(xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.1f", height));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST "rgb(248,248,240)"));
	return xmlTextWriterEndElement(w) < 0 ? -EIO : 0;
}

/* The controls, after the frames so that they are drawn over them: the bar (title,
 * subtitle, Reset Zoom, Search) and the foot (details, Matched), each a <g> on a
 * band of the background that the script keeps in the window (pin()). */
static int write_controls(xmlTextWriterPtr w, const struct svg_geom *g, uint64_t total,
			  const struct script_flame_svg_opts *o, struct script_buf *tmp)
{
	const char *title = o->title ? o->title : o->inverted ? "Icicle Graph" : "Flame Graph";
	int err;

	W_OK(xmlTextWriterStartElement(w, BAD_CAST "g"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "bar"));
	if ((err = write_band(w, 0, g->ypad1 - 6)))
		return err;
	if ((err = clean_text(tmp, title, strlen(title))) ||
	    (err = write_text(w, "title", g->width / 2, 24, NULL, tmp->p)))
		return err;
	if (o->subtitle && ((err = clean_text(tmp, o->subtitle, strlen(o->subtitle))) ||
			    (err = write_text(w, "subtitle", g->width / 2, 24 + 17, NULL,
					      tmp->p))))
		return err;
	if ((err = write_text(w, "unzoom", SCRIPT_FLAME_XPAD, 24, "hide", "Reset Zoom")) ||
	    (err = write_text(w, "search", g->width - SCRIPT_FLAME_XPAD, 24, NULL,
			      "Search")))
		return err;
	W_OK(xmlTextWriterEndElement(w));
	W_OK(xmlTextWriterStartElement(w, BAD_CAST "g"));
	W_OK(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "foot"));
	if ((err = write_band(w, g->height - g->ypad2 + 6, g->ypad2 - 6)) ||
	    (err = write_text(w, "details", SCRIPT_FLAME_XPAD, g->height - 12, NULL, " ")) ||
	    (err = write_text(w, "matched", g->width - SCRIPT_FLAME_XPAD, g->height - 12,
			      NULL, " ")))
		return err;
	W_OK(xmlTextWriterEndElement(w));
	if (!total && (err = write_text(w, "empty", g->width / 2, g->ypad1 + 24, NULL,
					"no samples")))
		return err;
	return 0;
}

static int write_svg(struct script_flame *f, const struct script_flame_svg_opts *o,
		     xmlTextWriterPtr w)
{
	struct svg_geom g = { .width = SCRIPT_FLAME_WIDTH, .inverted = o->inverted,
			      .ypad1 = SCRIPT_FLAME_FONT_SIZE * 4 + 8,
			      .ypad2 = SCRIPT_FLAME_FONT_SIZE * 2 + 10 };
	uint64_t total = script_flame__samples(f);
	struct script_buf tmp = { 0 };
	struct script_flame_frame fr = { 0 };
	unsigned char *drawn = calloc(f->nr, 1);
	int err = 0;

	if (!drawn)
		return -ENOMEM;
	script_flame__layout(f);
	g.scale = total ? (g.width - 2 * SCRIPT_FLAME_XPAD) / (double)total : 0;
	/* frames narrower than the minimum are not drawn (nor their children, which
	 * are narrower still) */
	for (size_t i = 0; i < f->nr; i++) {
		script_flame__frame(f, i, &fr);
		drawn[i] = total && (double)fr.n * g.scale >= SCRIPT_FLAME_MIN_WIDTH &&
			   100.0 * (double)fr.n >= o->min_percent * (double)total &&
			   (!i || drawn[fr.parent]);
		if (drawn[i] && fr.depth > g.max_depth)
			g.max_depth = fr.depth;
	}
	g.height = g.ypad1 + g.ypad2 + (g.max_depth + 1) * SCRIPT_FLAME_FRAME_HEIGHT;
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "");
	if ((err = write_head(w, &g, total)))
		goto out;
	if (xmlTextWriterStartElement(w, BAD_CAST "g") < 0 ||
	    xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "frames") < 0) {
		err = -EIO;
		goto out;
	}
	for (size_t i = 0; i < f->nr && !err; i++) {
		if (!drawn[i])
			continue;
		script_flame__frame(f, i, &fr);
		err = write_frame(w, &fr, &g, total, &tmp);
	}
	if (!err && xmlTextWriterEndElement(w) < 0)	/* #frames */
		err = -EIO;
	if (!err)
		err = write_controls(w, &g, total, o, &tmp);
	if (!err && xmlTextWriterEndDocument(w) < 0)
		err = -EIO;
out:
	script_buf__exit(&tmp);
	free(drawn);
	return err;
}

/* libxml2's output: written to the file's descriptor; the first failure (a full
 * disk) is kept and the rest dropped, so that libxml2 prints no error of its own. */
struct svg_out {
	int fd;
	int err;	/* -errno of the first failed write, or 0 */
};

static int svg_write(void *ctx, const char *buf, int len)
{
	struct svg_out *o = ctx;

	if (!o->err && len > 0)
		o->err = outpath__write(o->fd, buf, (size_t)len);
	return len;
}

static int svg_close(void *ctx)
{
	(void)ctx;
	return 0;
}

int script_flame__write_svg(struct script_flame *f, const struct script_flame_svg_opts *o,
			    const char *path)
{
	struct outpath_file of;
	struct svg_out out;
	xmlOutputBufferPtr buf;
	xmlTextWriterPtr w;
	int err;

	if ((err = outpath__open(&of, path, NULL, false, 0666)))
		return err;
	out.fd = of.fd;
	out.err = 0;
	buf = xmlOutputBufferCreateIO(svg_write, svg_close, &out, NULL);
	w = buf ? xmlNewTextWriter(buf) : NULL;
	if (!w) {
		if (buf)
			xmlOutputBufferClose(buf);
		outpath__abort(&of);
		return -ENOMEM;
	}
	err = write_svg(f, o, w);
	xmlFreeTextWriter(w);	/* flushes and frees buf */
	if (out.err)
		err = out.err;	/* the write's own error, not libxml2's -EIO */
	if (err)
		outpath__abort(&of);
	else
		err = outpath__commit(&of);
	return err;
}
