#ifndef DIRREPORT_MACHINE_SYMBOL_INTERNAL_H
#define DIRREPORT_MACHINE_SYMBOL_INTERNAL_H
#ifndef DIRREPORT_IN_MACHINE
#error "symbol-internal.h is private to machine/"
#endif
/*
 * symbol-internal - what the symbol table's files share, and nothing else includes:
 * a table builder's node (struct sb_node) and its in-order sequence, which the
 * kallsyms loader (symbol-text.c) fills and prunes in place.
 *
 * - symbol.c: the table builder (perf's fix-ups of ends and duplicates, its tree
 *   replayed where symbols overlap), the finished table and its lookups, the
 *   formatting of a symbol and offset;
 * - symbol-text.c: tables from text: kallsyms files (block by block, in parallel),
 *   module symbols split off, perf-PID.map files;
 * - symbol-elf.c: tables from ELF files (.symtab / .dynsym, .plt entries);
 * - symbol-demangle.c: C++ and Rust names demangled as perf shows them.
 *
 * Thread safety: a builder belongs to one thread (symbol.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>	/* strchr */

#include "machine/symbol.h"	/* struct symtab_builder */

/* A symbol of a table being built: the builder's nodes (symtab_builder.n), and a
 * kallsyms load's slots, parsed in place (kallsyms_block__parse()), which become the
 * builder's nodes (kallsyms_load__finish()). */
struct sb_node {
	uint64_t start, end;	/* map_ip space, end exclusive */
	uint32_t name;		/* offset in the builder's pool */
	uint8_t binding, type;
	uint8_t dead;		/* erased */
	uint8_t kind;		/* SB_KIND_*: what the kallsyms rules ask of its name */
};

/* A node's name holds '[' (a module's, perf's kallsyms end rule) or '\t' ("name\t
 * [module]": perf's kallsyms split), noted as kallsyms lines are parsed (in parallel,
 * kallsyms_block__parse()) rather than searched for in the serial fix-ups;
 * without SB_KIND_KNOWN (symtab_builder__add()) the name is searched. */
#define SB_KIND_KNOWN 1u
#define SB_KIND_BRACKET 2u
#define SB_KIND_TAB 4u

/* Whether node x's name holds c ('[' or '\t', the SB_KIND_ bit for it). */
static inline bool symtab_builder__name_has(const struct symtab_builder *b, uint32_t x,
					    char c, uint8_t bit)
{
	if (b->n[x].kind & SB_KIND_KNOWN)
		return b->n[x].kind & bit;
	return strchr(b->pool + b->n[x].name, c) != NULL;
}

/* Node x's name, in the builder's pool. */
static inline const char *symtab_builder__node_name(const struct symtab_builder *b,
						    uint32_t x)
{
	return b->pool + b->n[x].name;
}

/**
 * @brief b->seq: the builder's live nodes in perf's tree order (by start, equal
 *        starts in insertion order); nothing when it is still valid.
 * @return 0 or -ENOMEM.
 */
int symtab_builder__build_seq(struct symtab_builder *b);

/** @brief Erase node @p x (the caller removes it from b->seq), logged so that
 *  symtab_builder__finish() can replay perf's tree.  @return 0 or -ENOMEM. */
int symtab_builder__seq_erase(struct symtab_builder *b, uint32_t x);

#endif
