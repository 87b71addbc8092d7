/*
 * pg_schema - perf 6.1's export-to-postgresql.py schema (see pg-schema.h).  The SQL
 * says what perf's database holds; the server stores its own normalized form of the
 * views, so the text here need only mean the same.
 */
#include "convert/pg-schema.h"

#include <string.h>	/* memcpy */

#include "banned.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

const struct pg_statement pg_schema_tables[] = {
	{ 0, "CREATE TABLE selected_events (id bigint NOT NULL, name varchar(80))" },
	{ 0, "CREATE TABLE machines (id bigint NOT NULL, pid integer, root_dir varchar(4096))" },
	{ 0, "CREATE TABLE threads (id bigint NOT NULL, machine_id bigint, process_id bigint,"
	     " pid integer, tid integer)" },
	{ 0, "CREATE TABLE comms (id bigint NOT NULL, comm varchar(16), c_thread_id bigint,"
	     " c_time bigint, exec_flag boolean)" },
	{ 0, "CREATE TABLE comm_threads (id bigint NOT NULL, comm_id bigint, thread_id bigint)" },
	{ 0, "CREATE TABLE dsos (id bigint NOT NULL, machine_id bigint, short_name varchar(256),"
	     " long_name varchar(4096), build_id varchar(64))" },
	{ 0, "CREATE TABLE symbols (id bigint NOT NULL, dso_id bigint, sym_start bigint,"
	     " sym_end bigint, binding integer, name varchar(2048))" },
	{ 0, "CREATE TABLE branch_types (id integer NOT NULL, name varchar(80))" },
	{ 0, "CREATE TABLE samples (id bigint NOT NULL, evsel_id bigint, machine_id bigint,"
	     " thread_id bigint, comm_id bigint, dso_id bigint, symbol_id bigint,"
	     " sym_offset bigint, ip bigint, time bigint, cpu integer, to_dso_id bigint,"
	     " to_symbol_id bigint, to_sym_offset bigint, to_ip bigint, period bigint,"
	     " weight bigint, transaction bigint, data_src bigint, branch_type integer,"
	     " in_tx boolean, call_path_id bigint, insn_count bigint, cyc_count bigint,"
	     " flags integer)" },
	{ SCHEMA_CALLCHAINS, "CREATE TABLE call_paths (id bigint NOT NULL, parent_id bigint,"
			     " symbol_id bigint, ip bigint)" },
};
const size_t pg_schema_nr_tables = N(pg_schema_tables);

const struct pg_statement pg_schema_keys[] = {
	{ 0, "ALTER TABLE selected_events ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE machines ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE threads ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE comms ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE comm_threads ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE dsos ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE symbols ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE branch_types ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE samples ADD PRIMARY KEY (id)" },
	{ SCHEMA_CALLCHAINS, "ALTER TABLE call_paths ADD PRIMARY KEY (id)" },
	{ 0, "ALTER TABLE threads"
	     " ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id),"
	     " ADD CONSTRAINT processfk FOREIGN KEY (process_id) REFERENCES threads (id)" },
	{ 0, "ALTER TABLE comms"
	     " ADD CONSTRAINT threadfk FOREIGN KEY (c_thread_id) REFERENCES threads (id)" },
	{ 0, "ALTER TABLE comm_threads"
	     " ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id),"
	     " ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id)" },
	{ 0, "ALTER TABLE dsos"
	     " ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id)" },
	{ 0, "ALTER TABLE symbols"
	     " ADD CONSTRAINT dsofk FOREIGN KEY (dso_id) REFERENCES dsos (id)" },
	{ 0, "ALTER TABLE samples"
	     " ADD CONSTRAINT evselfk FOREIGN KEY (evsel_id) REFERENCES selected_events (id),"
	     " ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id),"
	     " ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id),"
	     " ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id),"
	     " ADD CONSTRAINT dsofk FOREIGN KEY (dso_id) REFERENCES dsos (id),"
	     " ADD CONSTRAINT symbolfk FOREIGN KEY (symbol_id) REFERENCES symbols (id),"
	     " ADD CONSTRAINT todsofk FOREIGN KEY (to_dso_id) REFERENCES dsos (id),"
	     " ADD CONSTRAINT tosymbolfk FOREIGN KEY (to_symbol_id) REFERENCES symbols (id)" },
	{ SCHEMA_CALLCHAINS, "ALTER TABLE call_paths"
	     " ADD CONSTRAINT parentfk FOREIGN KEY (parent_id) REFERENCES call_paths (id),"
	     " ADD CONSTRAINT symbolfk FOREIGN KEY (symbol_id) REFERENCES symbols (id)" },
};
const size_t pg_schema_nr_keys = N(pg_schema_keys);

const struct pg_statement pg_schema_views[] = {
	{ 0, "CREATE VIEW machines_view AS SELECT id, pid, root_dir,"
	     " CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN 'host' ELSE 'guest' END"
	     " AS host_or_guest FROM machines" },
	{ 0, "CREATE VIEW dsos_view AS SELECT id, machine_id,"
	     " (SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,"
	     " short_name, long_name, build_id FROM dsos" },
	{ 0, "CREATE VIEW symbols_view AS SELECT id, name,"
	     " (SELECT short_name FROM dsos WHERE id=dso_id) AS dso, dso_id, sym_start, sym_end,"
	     " CASE WHEN binding=0 THEN 'local' WHEN binding=1 THEN 'global' ELSE 'weak' END"
	     " AS binding FROM symbols" },
	{ 0, "CREATE VIEW threads_view AS SELECT id, machine_id,"
	     " (SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,"
	     " process_id, pid, tid FROM threads" },
	{ 0, "CREATE VIEW comm_threads_view AS SELECT comm_id,"
	     " (SELECT comm FROM comms WHERE id = comm_id) AS command, thread_id,"
	     " (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	     " (SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads" },
	{ SCHEMA_CALLCHAINS, "CREATE VIEW call_paths_view AS SELECT c.id, to_hex(c.ip) AS ip,"
	     " c.symbol_id, (SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol,"
	     " (SELECT dso_id FROM symbols WHERE id = c.symbol_id) AS dso_id,"
	     " (SELECT dso FROM symbols_view WHERE id = c.symbol_id) AS dso_short_name,"
	     " c.parent_id, to_hex(p.ip) AS parent_ip, p.symbol_id AS parent_symbol_id,"
	     " (SELECT name FROM symbols WHERE id = p.symbol_id) AS parent_symbol,"
	     " (SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS parent_dso_id,"
	     " (SELECT dso FROM symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name"
	     " FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id" },
	{ 0, "CREATE VIEW samples_view AS SELECT id, time, cpu,"
	     " (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	     " (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	     " (SELECT comm FROM comms WHERE id = comm_id) AS command,"
	     " (SELECT name FROM selected_events WHERE id = evsel_id) AS event,"
	     " to_hex(ip) AS ip_hex,"
	     " (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, sym_offset,"
	     " (SELECT short_name FROM dsos WHERE id = dso_id) AS dso_short_name,"
	     " to_hex(to_ip) AS to_ip_hex,"
	     " (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol, to_sym_offset,"
	     " (SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name,"
	     " (SELECT name FROM branch_types WHERE id = branch_type) AS branch_type_name,"
	     " in_tx, insn_count, cyc_count,"
	     " CASE WHEN cyc_count=0 THEN CAST(0 AS NUMERIC(20, 2))"
	     " ELSE CAST((CAST(insn_count AS FLOAT) / cyc_count) AS NUMERIC(20, 2)) END AS IPC,"
	     " flags FROM samples" },
};
const size_t pg_schema_nr_views = N(pg_schema_views);

const char *const pg_schema_columns[EXPORT__NR_TABLES] = {
	[EXPORT_EVSEL] = "qt",
	[EXPORT_MACHINE] = "qit",
	[EXPORT_THREAD] = "qqqii",
	[EXPORT_COMM] = "qtqqb",
	[EXPORT_COMM_THREAD] = "qqq",
	[EXPORT_DSO] = "qqttt",
	[EXPORT_SYMBOL] = "qqqqit",
	[EXPORT_BRANCH_TYPE] = "it",
	[EXPORT_CALL_PATH] = "qqqq",
	/* id evsel machine thread comm dso symbol sym_offset ip time cpu to_dso
	 * to_symbol to_sym_offset to_ip period weight transaction data_src branch_type
	 * in_tx call_path insn cyc flags */
	[EXPORT_SAMPLE] = "qqqqqqqqqqiqqqqqqqqibqqqi",
};

#define R(t) ((t) + 1)
const unsigned char pg_schema_refs[EXPORT__NR_TABLES][ES__NR_COLS] = {
	[EXPORT_EVSEL] = { R(EXPORT_EVSEL) },
	[EXPORT_MACHINE] = { R(EXPORT_MACHINE) },			/* id, pid */
	[EXPORT_THREAD] = { R(EXPORT_THREAD), R(EXPORT_MACHINE), R(EXPORT_THREAD) },
	[EXPORT_COMM] = { R(EXPORT_COMM), R(EXPORT_THREAD) },	/* id, c_thread_id, ... */
	[EXPORT_COMM_THREAD] = { R(EXPORT_COMM_THREAD), R(EXPORT_COMM), R(EXPORT_THREAD) },
	[EXPORT_DSO] = { R(EXPORT_DSO), R(EXPORT_MACHINE) },
	[EXPORT_SYMBOL] = { R(EXPORT_SYMBOL), R(EXPORT_DSO) },
	/* branch_types: fixed ids, the same in every recording */
	[EXPORT_CALL_PATH] = { R(EXPORT_CALL_PATH), R(EXPORT_CALL_PATH), R(EXPORT_SYMBOL) },
	[EXPORT_SAMPLE] = {
		[ES_ID] = R(EXPORT_SAMPLE), [ES_EVSEL_ID] = R(EXPORT_EVSEL),
		[ES_MACHINE_ID] = R(EXPORT_MACHINE), [ES_THREAD_ID] = R(EXPORT_THREAD),
		[ES_COMM_ID] = R(EXPORT_COMM), [ES_DSO_ID] = R(EXPORT_DSO),
		[ES_SYMBOL_ID] = R(EXPORT_SYMBOL), [ES_TO_DSO_ID] = R(EXPORT_DSO),
		[ES_TO_SYMBOL_ID] = R(EXPORT_SYMBOL), [ES_CALL_PATH_ID] = R(EXPORT_CALL_PATH),
	},
};
#undef R

const unsigned short pg_schema_text_max[EXPORT__NR_TABLES][EXPORT_ROW_MAX_TEXT] = {
	[EXPORT_EVSEL] = { 80 },		/* name */
	[EXPORT_MACHINE] = { 4096 },		/* root_dir */
	[EXPORT_COMM] = { 16 },			/* comm */
	[EXPORT_DSO] = { 256, 4096, 64 },	/* short_name, long_name, build_id */
	[EXPORT_SYMBOL] = { 2048 },		/* name */
	[EXPORT_BRANCH_TYPE] = { 80 },		/* name */
};

/* The length of the well-formed UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;	/* the second byte's range */

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* no overlong forms */
		else if (c == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

size_t pg_text__fit(const char *s, size_t n, size_t max_chars, char *out, unsigned *fixes)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0, chars = 0;

	*fixes = 0;
	while (i < n) {
		size_t k = utf8_seq(p + i, n - i);

		if (chars == max_chars) {
			*fixes |= PG_TEXT_CUT;
			break;
		}
		if (k) {
			memcpy(out + o, p + i, k);
			o += k;
			i += k;
		} else {	/* U+FFFD */
			out[o++] = (char)0xef;
			out[o++] = (char)0xbf;
			out[o++] = (char)0xbd;
			i++;
			*fixes |= PG_TEXT_REPLACED;
		}
		chars++;
	}
	return o;
}
