#ifndef DIRREPORT_MACHINE_MEM_H
#define DIRREPORT_MACHINE_MEM_H
/*
 * mem - PERF_SAMPLE_DATA_SRC decoded into the texts of perf 6.1's memory sort keys
 * (`--mem-mode`: mem, snoop, tlb, locked, blocked) and the fields they compare, and
 * into perf script's data_src column.  Here, not in report/, because both dirreport
 * and dirscript print them.
 *
 * Format: the data_src bit layout of the kernel's uapi linux/perf_event.h
 * (union perf_mem_data_src, little-endian bit order):
 *   mem_op 0-4, mem_lvl 5-18, mem_snoop 19-23, mem_lock 24-25, mem_dtlb 26-32,
 *   mem_lvl_num 33-36, mem_remote 37, mem_snoopx 38-39, mem_blk 40-42, mem_hops 43-45.
 * The texts are perf 6.1's, observed with `perf script -F data_src` and
 * `perf report --mem-mode -s KEY` on copies of a recording whose data_src values
 * were rewritten (this machine has no PMU that records memory accesses; the kernel's
 * software events write PERF_MEM_NA, 0x1e05080021).  See tests/unit/check_mem.c.
 *
 * Thread safety: every function is pure.
 */
#include <stddef.h>
#include <stdint.h>

/** The data_src fields, each shifted down to bit 0. */
enum mem_field {
	MEM_FIELD_LVL,		/* mem_lvl (14 bits): the mem key compares it */
	MEM_FIELD_SNOOP,	/* mem_snoop (5 bits): the snoop key */
	MEM_FIELD_LOCK,		/* mem_lock (2 bits): the locked key */
	MEM_FIELD_DTLB,		/* mem_dtlb (7 bits): the tlb key */
	MEM_FIELD_BLK,		/* mem_blk (3 bits): the blocked key */
	MEM_FIELD_OP,		/* mem_op (5 bits): perf script's "OP" */
};

/** The bytes of perf script's buffer for the data_src text (the text is cut to
 *  one less). */
#define MEM_SCRIPT_TEXT_MAX 100

/**
 * @brief One field of a data_src value.
 * @param src  the sample's DATA_SRC word
 * @return the field's bits, shifted to bit 0.
 * Thread safety: pure.  Format: uapi linux/perf_event.h, perf_mem_data_src.
 */
uint64_t mem_src__field(uint64_t src, enum mem_field f);

/**
 * @brief The text perf prints for a field of @p src, written to @p buf (always
 *        terminated when @p len > 0, cut to @p len - 1 bytes):
 *   - MEM_FIELD_LVL ("Memory access"): with mem_hops: "Remote " if mem_remote, the
 *     hop ("core, same node ", "node, same socket ", "socket, same board ", "board ",
 *     "(null) " for 5-7), then the mem_lvl_num name; without: "Remote " if
 *     mem_remote, the mem_lvl level bits' names joined by " or " ("N/A", "L1",
 *     "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)", "Remote RAM
 *     (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O",
 *     "Uncached"), then " or " and the mem_lvl_num name ("L1".."L8", "CXL", "I/O",
 *     "Any cache", "LFB/MAB", "RAM", "PMEM", "N/A"; 0: none, and no " or ").  "N/A"
 *     if nothing was written, then " hit" / " miss" for the HIT / MISS bits.
 *   - MEM_FIELD_SNOOP ("Snoop"): mem_snoop's "N/A", "None", "Hit", "Miss", "HitM",
 *     then mem_snoopx's "Fwd", "Peer", joined by " or "; "N/A" if none.
 *   - MEM_FIELD_DTLB ("TLB access"): "N/A", "L1", "L2", "Walker", "Fault" joined by
 *     " or ", "N/A" if none, then " hit" / " miss".
 *   - MEM_FIELD_LOCK ("Locked"): "N/A" (NA bit), else "Yes" (LOCKED bit), else "No".
 *   - MEM_FIELD_BLK ("Blocked"): " N/A" (NA bit or no bit), else " Data" and/or
 *     " Addr" (with their leading blanks).
 *   - MEM_FIELD_OP: the first of the NA, LOAD, STORE, PFETCH, EXEC bits that is set
 *     ("N/A", "LOAD", "STORE", "PFETCH", "EXEC"), "No" if none.
 * @return the length written.
 * Thread safety: pure.  Format: uapi linux/perf_event.h PERF_MEM_*; texts: perf 6.1.
 */
size_t mem_src__text(uint64_t src, enum mem_field f, char *buf, size_t len);

/**
 * @brief The text perf script prints after a data_src value:
 *        "|OP op|LVL lvl|SNP snoop|TLB tlb|LCK lock|BLK blk" with mem_src__text()'s
 *        texts, cut to @p len - 1 bytes (perf's buffer holds MEM_SCRIPT_TEXT_MAX).
 * @param buf  receives the text, always terminated when @p len > 0
 * @return the length written.
 * Thread safety: pure.  Format: uapi linux/perf_event.h PERF_MEM_*; text: perf 6.1's
 * `perf script -F data_src` (observed: tests/script/golden/mem-raw-data-src).
 */
size_t mem_src__script_text(uint64_t src, char *buf, size_t len);

#endif
