#ifndef DIRREPORT_SCRIPT_FLAME_H
#define DIRREPORT_SCRIPT_FLAME_H
/*
 * flame - a flame graph (or icicle graph) as one self-contained interactive SVG,
 * made from the folded stacks of script/fold.h, as FlameGraph's flamegraph.pl makes
 * it from stackcollapse-perf.pl's output (read, not copied).
 *
 * The stacks become a tree: the root "all", then each stack's parts from the
 * outermost (PNAME) in; identical parts of siblings are one frame (same name and
 * kind), whose sample count is the sum of its stacks' counts.  Siblings keep the
 * order their first stacks were added in (stacks come in byte order from
 * script_fold__for_each(), so siblings are sorted by name, as in flamegraph.pl).
 *
 * Layout (script_flame__layout()): a frame's x is the number of samples left of it
 * (its parent's x plus its earlier siblings' counts), its width its count; pixels
 * are x and count times (image width - 20) / root count.  A frame narrower than
 * 0.1 pixel is not drawn, nor are its descendants (flamegraph.pl's --minwidth): its
 * samples still count in its parent.
 *
 * The SVG: one <g class="f"> per drawn frame with data-x, data-n (samples) and data-d
 * (depth, the root 0), a <title> tooltip "NAME (N samples, P%)", a <rect> coloured by
 * kind and a <text> label truncated to the frame with "..".  An embedded script
 * zooms on click, searches (the "Search" control or Ctrl-F: a regular expression;
 * matches turn magenta and "Matched: P%" gives their share of samples; `?s=TERM`
 * in the URL searches at load), and resets (the "Reset Zoom" control, Escape).
 * Text is written by libxml2's xmlTextWriter (escaping and CDATA are its job).
 *
 * Thread safety: an object belongs to one thread; the colour and fit functions are
 * pure.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t, uint8_t */

#include "script/fold.h"	/* enum script_frame_kind */
#include "script/format.h"	/* struct script_buf */

struct script_flame;

/** The image's geometry, pixels (flamegraph.pl's defaults, a monospace font). */
#define SCRIPT_FLAME_WIDTH 1200
#define SCRIPT_FLAME_XPAD 10
#define SCRIPT_FLAME_FRAME_HEIGHT 16
#define SCRIPT_FLAME_FONT_SIZE 12
/** Pixels per character of the labels: a monospace font's 0.6 em. */
#define SCRIPT_FLAME_CHAR_WIDTH (SCRIPT_FLAME_FONT_SIZE * 0.6)
/** Frames narrower than this (pixels) are not drawn. */
#define SCRIPT_FLAME_MIN_WIDTH 0.1

/** One frame of the tree, after script_flame__layout(). */
struct script_flame_frame {
	const char *name;	/* borrowed from the tree; not NUL-terminated */
	size_t name_len;	/* bytes, without the kind suffix */
	enum script_frame_kind kind;
	uint64_t x;		/* samples left of the frame */
	uint64_t n;		/* samples in the frame and below */
	unsigned depth;		/* 0 = the root "all" */
	size_t parent;		/* index of the parent; the root's is 0 */
};

/** @brief A new tree with only its root "all" (0 samples).  @return 0 or -ENOMEM.
 *  Ownership: the caller frees it with script_flame__delete().  Thread safety: any.
 *  Format: none. */
int script_flame__new(struct script_flame **out);

/** @brief Free the tree; NULL is a no-op. */
void script_flame__delete(struct script_flame *f);

/**
 * @brief Add one folded stack.
 * @param stack  `PNAME;OUTER;...;INNER` (@p len bytes, no count), parts annotated
 *               with script_fold's kind suffixes or not (no suffix: a user frame)
 * @param count  its samples
 * @return 0, or -ENOMEM (the tree unchanged except for frames already added, whose
 *         counts then miss this stack), -EOVERFLOW past 2^32 - 1 frames.
 * Thread safety: the object's thread.  Format: stackcollapse-perf.pl's output.
 */
int script_flame__add(struct script_flame *f, const char *stack, size_t len,
		      uint64_t count);

/** @brief Samples of the root (the sum of the counts added). */
uint64_t script_flame__samples(const struct script_flame *f);

/** @brief Number of frames, the root included. */
size_t script_flame__nr_frames(const struct script_flame *f);

/**
 * @brief Compute every frame's x (see the file comment); call it after the last
 *        script_flame__add() and before script_flame__frame().
 * Thread safety: the object's thread.  Format: none.
 */
void script_flame__layout(struct script_flame *f);

/**
 * @brief Frame @p i (0 = the root; a parent's index is below its children's).
 * @return 0, or -ERANGE when @p i is not below script_flame__nr_frames().
 * Thread safety: the object's thread.  Format: none.
 */
int script_flame__frame(const struct script_flame *f, size_t i,
			struct script_flame_frame *out);

/**
 * @brief A frame's fill colour: a palette per kind (flamegraph.pl's java palette:
 *        user red, kernel orange, JIT/unknown green), the shade from flamegraph.pl's name hash, so a
 *        name has the same colour in every graph.
 * @param rgb  receives red, green, blue (0-255)
 * Thread safety: pure.  Format: flamegraph.pl's namehash and palettes.
 */
void script_flame__color(const char *name, size_t len, enum script_frame_kind kind,
			 uint8_t rgb[3]);

/**
 * @brief Append the label that fits @p width_px pixels: the name when its characters
 *        fit (at SCRIPT_FLAME_CHAR_WIDTH, 3 pixels of margin), else its first
 *        characters and "..", nothing when fewer than 3 characters fit.  A UTF-8
 *        character is never cut.
 * @return 0 or -ENOMEM.
 * Thread safety: the buffer's thread.  Format: flamegraph.pl's label rule.
 */
int script_flame__fit(struct script_buf *b, const char *name, size_t len, double width_px);

/** What the SVG shows besides the frames. */
struct script_flame_svg_opts {
	const char *title;	/* NULL = "Flame Graph" ("Icicle Graph" inverted) */
	const char *subtitle;	/* the line under the title; NULL = none */
	bool inverted;		/* icicle graph: the root on top */
	double min_percent;	/* --percent-limit: frames with a smaller share of
				 * the samples (percent) are not drawn, nor their
				 * descendants; 0 = every frame wide enough */
};

/**
 * @brief Write the SVG to @p path: into `PATH.tmp` (replaced if there), renamed to
 *        @p path (replaced if there) when complete; nothing is left on error.
 *        Lays the tree out first.
 * @return 0; -errno of creating, writing or renaming (-ENOENT, -EACCES, -ENOSPC,
 *         ...); -ENAMETOOLONG for a path over 4090 bytes; -ENOMEM; -EIO when
 *         libxml2's writer fails.
 * Thread safety: the object's thread (libxml2's writer keeps no shared state).
 * Format: SVG 1.1.
 */
int script_flame__write_svg(struct script_flame *f, const struct script_flame_svg_opts *o,
			    const char *path);

#endif
