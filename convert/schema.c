/*
 * schema - perf 6.1 export-to-sqlite.py's schema (see schema.h).
 */
#include "convert/schema.h"

#include "banned.h"

const struct schema_object schema_objects[] = {
	{ "selected_events", 0,
		"CREATE TABLE selected_events (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"name\t\tvarchar(80))" },
	{ "machines", 0,
		"CREATE TABLE machines (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"pid\t\tinteger,root_dir \tvarchar(4096))" },
	{ "threads", 0,
		"CREATE TABLE threads (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"machine_id\tbigint,process_id\tbigint,pid\t\tinteger,"
		"tid\t\tinteger)" },
	{ "comms", 0,
		"CREATE TABLE comms (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"comm\t\tvarchar(16),c_thread_id\tbigint,c_time\t\tbigint,"
		"exec_flag\tboolean)" },
	{ "comm_threads", 0,
		"CREATE TABLE comm_threads (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"comm_id\tbigint,thread_id\tbigint)" },
	{ "dsos", 0,
		"CREATE TABLE dsos (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"machine_id\tbigint,short_name\tvarchar(256),"
		"long_name\tvarchar(4096),build_id\tvarchar(64))" },
	{ "symbols", 0,
		"CREATE TABLE symbols (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"dso_id\t\tbigint,sym_start\tbigint,sym_end\tbigint,binding\tinteger,"
		"name\t\tvarchar(2048))" },
	{ "branch_types", 0,
		"CREATE TABLE branch_types (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"name\t\tvarchar(80))" },
	{ "samples", 0,
		"CREATE TABLE samples (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"evsel_id\tbigint,machine_id\tbigint,thread_id\tbigint,"
		"comm_id\tbigint,dso_id\t\tbigint,symbol_id\tbigint,"
		"sym_offset\tbigint,ip\t\tbigint,time\t\tbigint,cpu\t\tinteger,"
		"to_dso_id\tbigint,to_symbol_id\tbigint,to_sym_offset\tbigint,"
		"to_ip\t\tbigint,period\t\tbigint,weight\t\tbigint,"
		"transaction_\tbigint,data_src\tbigint,branch_type\tinteger,"
		"in_tx\t\tboolean,call_path_id\tbigint,insn_count\tbigint,"
		"cyc_count\tbigint,flags\t\tinteger)" },
	{ "call_paths", SCHEMA_CALLCHAINS,
		"CREATE TABLE call_paths (id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,"
		"parent_id\tbigint,symbol_id\tbigint,ip\t\tbigint)" },
	{ "machines_view", 0,
		"CREATE VIEW machines_view AS SELECT id,pid,root_dir,"
		"CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN 'host' ELSE 'guest' END AS host_or_guest FROM machines" },
	{ "dsos_view", 0,
		"CREATE VIEW dsos_view AS SELECT id,machine_id,"
		"(SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,"
		"short_name,long_name,build_id FROM dsos" },
	{ "symbols_view", 0,
		"CREATE VIEW symbols_view AS SELECT id,name,"
		"(SELECT short_name FROM dsos WHERE id=dso_id) AS dso,dso_id,"
		"sym_start,sym_end,"
		"CASE WHEN binding=0 THEN 'local' WHEN binding=1 THEN 'global' ELSE 'weak' END AS binding FROM symbols" },
	{ "threads_view", 0,
		"CREATE VIEW threads_view AS SELECT id,machine_id,"
		"(SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,"
		"process_id,pid,tid FROM threads" },
	{ "comm_threads_view", 0,
		"CREATE VIEW comm_threads_view AS SELECT comm_id,"
		"(SELECT comm FROM comms WHERE id = comm_id) AS command,thread_id,"
		"(SELECT pid FROM threads WHERE id = thread_id) AS pid,"
		"(SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads" },
	{ "call_paths_view", SCHEMA_CALLCHAINS,
		"CREATE VIEW call_paths_view AS SELECT c.id,printf(\"%x\","
		" c.ip) AS ip,c.symbol_id,"
		"(SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol,"
		"(SELECT dso_id FROM symbols WHERE id = c.symbol_id) AS dso_id,"
		"(SELECT dso FROM symbols_view  WHERE id = c.symbol_id) AS dso_short_name,"
		"c.parent_id,printf(\"%x\", p.ip) AS parent_ip,"
		"p.symbol_id AS parent_symbol_id,"
		"(SELECT name FROM symbols WHERE id = p.symbol_id) AS parent_symbol,"
		"(SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS parent_dso_id,"
		"(SELECT dso FROM symbols_view  WHERE id = p.symbol_id) AS parent_dso_short_name FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id" },
	{ "samples_view", 0,
		"CREATE VIEW samples_view AS SELECT id,time,cpu,"
		"(SELECT pid FROM threads WHERE id = thread_id) AS pid,"
		"(SELECT tid FROM threads WHERE id = thread_id) AS tid,"
		"(SELECT comm FROM comms WHERE id = comm_id) AS command,"
		"(SELECT name FROM selected_events WHERE id = evsel_id) AS event,"
		"printf(\"%x\", ip) AS ip_hex,"
		"(SELECT name FROM symbols WHERE id = symbol_id) AS symbol,"
		"sym_offset,"
		"(SELECT short_name FROM dsos WHERE id = dso_id) AS dso_short_name,"
		"printf(\"%x\", to_ip) AS to_ip_hex,"
		"(SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol,"
		"to_sym_offset,"
		"(SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name,"
		"(SELECT name FROM branch_types WHERE id = branch_type) AS branch_type_name,"
		"in_tx,insn_count,cyc_count,"
		"CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) ELSE ROUND(CAST(insn_count AS FLOAT) / cyc_count,"
		" 2) END AS IPC,flags FROM samples" },
};

const size_t schema_nr_objects = sizeof(schema_objects) / sizeof(schema_objects[0]);

const struct schema_table schema_tables[EXPORT__NR_TABLES] = {
	[EXPORT_EVSEL] = { "selected_events", "it" },
	[EXPORT_MACHINE] = { "machines", "iit" },
	[EXPORT_THREAD] = { "threads", "iiiii" },
	[EXPORT_COMM] = { "comms", "itiii" },
	[EXPORT_COMM_THREAD] = { "comm_threads", "iii" },
	[EXPORT_DSO] = { "dsos", "iittt" },
	[EXPORT_SYMBOL] = { "symbols", "iiiiit" },
	[EXPORT_BRANCH_TYPE] = { "branch_types", "it" },
	[EXPORT_CALL_PATH] = { "call_paths", "iiii" },
	[EXPORT_SAMPLE] = { "samples", "iiiiiiiiiiiiiiiiiiiiiiiii" },
};
