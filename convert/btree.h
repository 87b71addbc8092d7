#ifndef DIRREPORT_CONVERT_BTREE_H
#define DIRREPORT_CONVERT_BTREE_H
/*
 * btree - bulk loading of one SQLite rowid table whose rows arrive in ascending rowid
 * order and hold only integers (samples, call_paths): the rows are encoded straight
 * into table b-tree leaf pages, and at the end the leaves and the interior pages
 * above them are appended to a closed database file whose table is still empty.
 *
 * Why: inserting through SQLite costs about a microsecond per row (statement
 * execution, record building, b-tree descent); encoding the record here costs a few
 * tens of nanoseconds, and the file it gives is the one SQLite's own append path
 * would give, except that leaves are filled to the brim.
 *
 * Format: SQLite database file format (sqlite.org/fileformat2.html): the 100-byte
 * header (page size at 16, reserved bytes at 20, change counter at 24, page count
 * at 28, schema format at 44, version-valid-for at 92), table b-tree pages (leaf
 * 0x0D, interior 0x05), record format with serial types 0-6, 8 and 9 (schema format
 * 4), varints; the lock-byte page (the one holding byte 2^30) is never used.
 *
 * Invariants: rowids strictly increase; a row is at most BTREE_MAX_COLS integers;
 * the INTEGER PRIMARY KEY column (column 0) is stored as NULL (it is the rowid).
 *
 * Thread safety: a builder belongs to one thread.
 */
#include <stddef.h>
#include <stdint.h>

#define BTREE_MAX_COLS 32

struct btree_builder;

/**
 * @brief Start a table.
 * @param out        the builder (caller owns; btree_builder__delete frees)
 * @param page_size  bytes per page of the target database (512..65536, power of 2)
 * @param reserved   bytes reserved at the end of each page (header byte 20)
 * @param format4    schema format >= 4 (serial types 8 and 9 for 0 and 1 allowed)
 * @return 0, -EINVAL for a bad page size, -ENOMEM.
 * Ownership: the caller owns *out.  Thread safety: see file comment.
 * Format: page size and reserved bytes of the database header (offsets 16, 20).
 */
int btree_builder__new(struct btree_builder **out, uint32_t page_size, uint32_t reserved,
		       int format4);

/** @brief Free a builder and its pages (NULL is a no-op).  Thread safety: owner. */
void btree_builder__delete(struct btree_builder *b);

/**
 * @brief Append one row.
 * @param v   the row's columns in table order; v[0] is the rowid
 * @param n   number of columns (1..BTREE_MAX_COLS)
 * @return 0; -EINVAL if v[0] does not exceed the previous rowid or n is out of range;
 *         -ENOMEM.
 * Thread safety: see file comment.
 * Format: table b-tree leaf cell (payload size, rowid, record), record serial types.
 */
int btree_builder__add(struct btree_builder *b, const int64_t *v, size_t n);

/** @brief Rows added so far.  Thread safety: owner. */
uint64_t btree_builder__nr_rows(const struct btree_builder *b);

/**
 * @brief Write the table into a database file: leaves and interior pages appended
 *        after the last page, the top page written over the table's (empty) root page,
 *        and the header's page count and change counter updated.  Builders of several
 *        tables of one file are written one after the other.
 * @param fd        the database file, open for reading and writing, not in use by
 *                  SQLite
 * @param root      the table's root page number (sqlite_master.rootpage)
 * @return 0; -EIO if the file is not an SQLite database with the builder's page size,
 *         or root is not a page of it; -errno of a failed read or write (-EFBIG,
 *         -ENOSPC, ...); -ENOMEM.  Call once per builder: it finishes the last leaf.
 * Thread safety: see file comment.  Format: see file comment.
 */
int btree_builder__write(struct btree_builder *b, int fd, uint32_t root);

#endif
