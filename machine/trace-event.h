#ifndef DIRREPORT_MACHINE_TRACE_EVENT_H
#define DIRREPORT_MACHINE_TRACE_EVENT_H
/*
 * trace-event - tracepoint formats of a recording and the text perf report's `trace`
 * sort key ("Trace output" column) prints for one tracepoint sample.
 *
 * A thin layer over Debian's libtraceevent (pkg-config libtraceevent): this file only
 * splits the recording's tracing data into its parts and hands each part to the
 * matching libtraceevent parser; every print fmt is interpreted by libtraceevent.
 *
 * Format: perf.data feature section HEADER_TRACING_DATA (pipe mode: the payload that
 * follows a PERF_RECORD_HEADER_TRACING_DATA record), laid out as trace-cmd's
 * trace.dat "initial format" documents it, with every number in the byte order the
 * endianness byte names:
 *     10 bytes   "\027\010\104tracing"
 *     string     version, NUL-terminated (perf 6.1 writes "0.6")
 *     u8         endianness: 0 little, 1 big
 *     u8         sizeof(long) of the recording kernel (4 or 8)
 *     u32        page size (bytes)
 *     "header_page\0", u64 size, the events/header_page file
 *     "header_event\0", u64 size, the events/header_event file
 *     u32 count, then per ftrace event: u64 size, its format file
 *     u32 count of systems, then per system: its name (NUL-terminated), u32 count,
 *         then per event: u64 size, its format file
 *     u32 size, /proc/kallsyms text (perf 6.1 writes size 0)
 *     u32 size, printk formats ("ADDR : \"text\"" lines)
 *     version >= 0.6: u64 size, saved cmdlines ("PID COMM" lines)
 * A tracepoint sample's PERF_SAMPLE_RAW data is the tracepoint's record as the format
 * file describes it (common_type first); attr.config is the tracepoint id.
 *
 * Observed perf 6.1 behaviour reproduced here (perf report --stdio -s trace):
 *  - the text is libtraceevent's TEP_PRINT_INFO of the record: the print fmt applied
 *    to the fields, no "comm-pid [cpu] time: name:" prefix, no plugins (perf 6.1
 *    prints sched_switch as its print fmt says even where plugin_sched_switch.so is
 *    installed);
 *  - the event whose print fmt is used is looked up from the record's own common_type
 *    field, not from attr.config;
 *  - code addresses (%pS, %ps) resolve against perf's own kernel symbols, see
 *    trace_event_resolver_fn;
 *  - --raw-trace prints every non-common field of the attr's event as " name=value"
 *    (each with a leading space): pointers and unsigned longs in hex ("0x%llx"), other
 *    numbers in decimal whatever the print fmt says, printable char arrays and
 *    __data_loc strings as text, other arrays as "ARRAY[7f, 00, 00, 01]".
 *
 * Thread safety: a handle is built by one thread; afterwards trace_event__find(),
 * trace_event__system() and trace_event__name() are read-only and
 * trace_event__format() serialises itself with the handle's mutex (libtraceevent's
 * printing caches state inside the handle), so any thread may call them concurrently.
 * trace_event__delete() must not race with any other call on the same handle.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diag;
struct trace_event;		/* a parsed TRACING_DATA (opaque) */
struct trace_event_format;	/* one tracepoint's format inside it (opaque) */

/** Flags of trace_event__format(). */
enum trace_event_flags {
	TRACE_EVENT_RAW = 1 << 0,	/* perf report --raw-trace: fields, not print fmt */
};

/**
 * @brief Parse a recording's tracing data into a handle.
 * @param out          receives the handle on success (NULL on error)
 * @param data, size   the TRACING_DATA bytes (size in bytes): the feature section body
 *                     (struct features' tracing_data), or the payload following a pipe
 *                     TRACING_DATA record; bytes after the saved cmdlines are ignored
 * @param file_offset  file offset of data[0], for diagnostics only
 * @param path         file name for diagnostics (may be NULL)
 * @param d            diagnostic, may be NULL
 * @return 0;
 *         -DIAG_BAD_FEATURE when the layout above is broken: bad magic, a version
 *         string or system name without its NUL, an endianness byte other than 0/1, a
 *         long size other than 4/8, a missing "header_page"/"header_event" tag, a size
 *         or count that runs past `size` (the section is cut), or an event whose
 *         fields lie beyond the largest record a sample can carry (64 KiB), or a
 *         part libtraceevent crashes on (it is first fed to libtraceevent in a forked
 *         child, e.g. a print fmt with a constant "x % 0": d names the part's offset
 *         and the child's signal); d names the part and its file offset; -ENOMEM;
 *         -errno when pipe(), fork() or waitpid() fails.
 *         The header_page, kallsyms, printk and cmdlines texts are handed to
 *         libtraceevent as they are: what it cannot read there is skipped, as perf
 *         does (none of them is needed to print a sample's own fields).
 *         An event format libtraceevent cannot parse at all is not an error: it is
 *         left out (trace_event__find() then returns NULL for its id). A print fmt it
 *         cannot interpret keeps the event; libtraceevent then prints its fields raw.
 * Ownership: nothing of data is retained (parts are copied); the caller owns *out and
 * frees it with trace_event__delete().
 * Cost: the parts are parsed twice, once in a child process (fork(); the child only
 * allocates and calls libtraceevent, which glibc's fork keeps safe in a threaded
 * process, and leaves with _exit) - about a millisecond plus the fork of the caller's
 * page tables. The child's stderr is /dev/null and its fatal signals are reset to
 * their default action (a fuzzer's or sanitizer's crash handler must not report it).
 * Thread safety: touches only its arguments and libtraceevent's process-wide log
 * level, which the first call sets to silent once (libtraceevent would otherwise
 * print its parse warnings on stderr).
 * Format: HEADER_TRACING_DATA, see the top of this file.
 */
int trace_event__new(struct trace_event **out, const void *data, size_t size,
		     uint64_t file_offset, const char *path, struct diag *d);

/**
 * @brief Free a handle. NULL is a no-op.
 * Thread safety: no other call on te may run concurrently. Format: none.
 */
void trace_event__delete(struct trace_event *te);

/**
 * @brief The format of tracepoint `config` (an attr of type PERF_TYPE_TRACEPOINT).
 * @param te      the handle
 * @param config  attr.config: the tracepoint id ("ID:" line of its format file)
 * @return the format, borrowed from te (valid until trace_event__delete()), or NULL
 *         when the tracing data describes no such event (perf 6.1 then refuses the
 *         recording: "incompatible file format"). O(log events).
 * Thread safety: read-only. Format: the "ID:" lines of the event format files.
 */
const struct trace_event_format *trace_event__find(const struct trace_event *te,
						   uint64_t config);

/**
 * @brief System and event name of a format, e.g. "sched" and "sched_switch".
 * @return strings borrowed from te (valid until trace_event__delete()), never NULL.
 * Thread safety: read-only. Format: the system names of TRACING_DATA and the "name:"
 * lines of the format files.
 */
const char *trace_event__system(const struct trace_event_format *ev);
const char *trace_event__name(const struct trace_event_format *ev);

/**
 * A kernel symbol resolver for print fmts that print code addresses (%pS, %ps, %pF,
 * %pf, e.g. kmem:kmalloc's call_site). perf 6.1 resolves them against its own machine's
 * kernel symbols (the ones its report uses: /proc/kallsyms or the vmlinux), not the
 * kallsyms part of TRACING_DATA (which perf 6.1 records empty).
 * @param ctx    the pointer given to trace_event__set_resolver()
 * @param addr   the address the record holds
 * @param start  receives the start address of the symbol containing addr
 * @return the symbol name (must stay valid until trace_event__delete(); the handle
 *         does not free it), or NULL when addr is in no symbol (libtraceevent then
 *         prints the address in hex).
 * libtraceevent prints %pS as "NAME+0xOFFSET" (offset addr - start) and %ps as NAME.
 */
typedef const char *(*trace_event_resolver_fn)(void *ctx, uint64_t addr, uint64_t *start);

/**
 * @brief Install the kernel symbol resolver (none by default: addresses print as
 *        numbers, or through TRACING_DATA's kallsyms when it has any).
 * @param te   the handle
 * @param fn   the resolver, or NULL to remove it
 * @param ctx  passed to fn; borrowed, must outlive te's use of fn
 * @return 0; -ENOMEM.
 * Thread safety: not concurrent with trace_event__format() on te (set it before
 * formatting). fn is only called from trace_event__format(), under te's mutex, so it
 * runs in one thread at a time per handle. Format: none.
 */
int trace_event__set_resolver(struct trace_event *te, trace_event_resolver_fn fn,
			      void *ctx);

/**
 * @brief The "Trace output" text perf 6.1's `trace` sort key prints for one sample.
 * @param te        the handle
 * @param ev        the format of the sample's attr (trace_event__find(attr.config))
 * @param raw       the sample's PERF_SAMPLE_RAW bytes (struct sample raw), in the
 *                  recording's byte order (the tracing data's endianness byte)
 * @param raw_size  bytes of raw (struct sample raw_size)
 * @param flags     0: the print fmt of the event named by the record's common_type
 *                  (perf report -s trace); TRACE_EVENT_RAW: " name=value" for each
 *                  field of ev (perf report -s trace --raw-trace)
 * @param out       receives a NUL-terminated malloc'd string (caller frees), without
 *                  a trailing newline; NULL on error
 * @return 0; -EINVAL when raw_size > 65535 (no sample holds that much; perf's record
 *         size is 16 bits) or ev is NULL; -ENOMEM;
 *         -DIAG_BAD_SAMPLE (default mode only) when the print fmt of the event the
 *         record names cannot be evaluated safely by libtraceevent: it divides by
 *         something other than a positive constant, dumps an array (__print_hex,
 *         __print_array) of something other than a field or __data_loc array or with a
 *         count other than a constant, a __data_loc length or a field (optionally
 *         divided by a constant), indexes an array by a non-constant, calls a helper
 *         function, or is a trace_printk (bprint) event; or when this record's count
 *         field asks for a dump of more than 64 KiB (perf would read past the record).
 *         Kernel print fmts stay within these rules.
 *         A record shorter than its fields is not an error: missing bytes read as
 *         zero, as do the bytes __data_loc offsets point at past raw_size (perf would
 *         read whatever follows the record). A common_type the tracing data does not
 *         describe prints as libtraceevent does ("[UNKNOWN TYPE n]" and the bytes).
 * Ownership: raw is only read during the call.
 * Thread safety: serialised on te's mutex; callable from any thread.
 * Format: PERF_SAMPLE_RAW of a tracepoint sample = its trace record, fields as the
 * event format file of HEADER_TRACING_DATA gives them.
 */
int trace_event__format(struct trace_event *te, const struct trace_event_format *ev,
			const void *raw, size_t raw_size, unsigned flags, char **out);

#endif
