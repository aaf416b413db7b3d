/** The `databases` pack (opt-in): statements and tools that drop or empty data. */
import type { RulePack, ShellCommand, ShellRule } from "../types.ts";

const CLIENTS = [
	"psql",
	"mysql",
	"mariadb",
	"sqlite3",
	"sqlcmd",
	"clickhouse-client",
	"clickhouse",
	"cockroach",
	"duckdb",
	"mongo",
	"mongosh",
	"redis-cli",
	"cqlsh",
	"snowsql",
	"bq",
];

/** The statements a client runs: its arguments and what it reads on stdin (`psql <<SQL`). */
const statements = (command: ShellCommand) => `${command.args.join(" ")}\n${command.stdin ?? ""}`;

const rules: ShellRule[] = [
	{
		id: "databases/drop",
		reason: "drops or truncates a database object",
		programs: CLIENTS,
		test: (command) =>
			/\b(?:DROP\s+(?:DATABASE|SCHEMA|TABLE|VIEW|INDEX|USER|ROLE|KEYSPACE)|TRUNCATE)\b|\.drop(?:Database)?\s*\(|\bFLUSH(?:ALL|DB)\b/i.test(
				statements(command),
			),
	},
	{
		id: "databases/unbounded-write",
		reason: "a DELETE or UPDATE without WHERE changes every row",
		programs: CLIENTS,
		test(command) {
			for (const statement of statements(command).split(";")) {
				if (/\b(?:DELETE\s+FROM|UPDATE)\s/i.test(statement) && !/\bWHERE\b/i.test(statement)) return true;
				if (/\.(?:deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/.test(statement)) return true;
			}
			return false;
		},
	},
	{
		id: "databases/drop-tool",
		reason: "a tool that drops a database",
		test: (command) =>
			command.program === "dropdb" ||
			command.program === "dropuser" ||
			(command.program === "mysqladmin" && command.args.some((arg) => /^drop$/i.test(arg))),
	},
];

/** DROP/TRUNCATE, DELETE or UPDATE without WHERE, FLUSHALL, dropdb — through any client. */
export const databasesPack: RulePack = {
	name: "databases",
	description: "DROP/TRUNCATE, DELETE/UPDATE without WHERE, FLUSHALL, dropdb",
	rules,
};
