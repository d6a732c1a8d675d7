import { errorMessage } from "@hatloop/context";
import { DatabaseError } from "../location.js";
import type { Execute } from "./broker.js";
import { shrunkenRelations } from "./manifest.js";

// A damaged database must not answer "No sessions yet" or "0 messages stored": Postgres reads a
// truncated relation file as a shorter table, without an error. Whenever a process opens the
// embedded directory, its relation files are compared with the manifest (a few stat calls, see
// manifest.ts). Without a manifest (a database never closed cleanly since this check exists), and
// in `hatloop db check`, consistency is checked instead, in SQL:
// - rows of sessions that do not exist (foreign keys make that impossible in a sound database);
// - sessions that have run (iteration > 0) with no message (an iteration is counted after its
//   messages are stored).

/** The embedded database has lost data; found as it was opened (`unchanged`: the default) or by a query. */
export class DatabaseDamagedError extends DatabaseError {
  constructor(
    readonly dataDir: string,
    readonly findings: string[],
    options: { unchanged?: boolean } = {},
  ) {
    const more = findings.length > 1 ? `; and ${findings.length - 1} more (hatloop db check lists them)` : "";
    const unchanged = options.unchanged === false ? "" : " Nothing was changed.";
    super(
      `the embedded database at ${dataDir} is damaged: ${findings[0]}${more}.${unchanged} Restore ${dataDir} from a backup, or move it aside (mv ${dataDir} ${dataDir}.damaged) to start an empty one`,
    );
  }
}

/** Children of sessions, each with an index that starts with session_id (walked, not scanned). */
const CHILD_TABLES = ["messages", "checkpoints", "events"] as const;

/** Distinct session ids of a table without reading it whole: one index probe per session. */
const orphansOf = (table: string) => `
  with recursive ids(id) as (
    (select session_id from ${table} order by session_id limit 1)
    union all
    select (select t.session_id from ${table} t where t.session_id > ids.id order by t.session_id limit 1) from ids where ids.id is not null
  )
  select count(*)::int as n, min(id) as example from ids where id is not null and not exists (select 1 from sessions s where s.id = ids.id)`;

/** An iteration is counted only after its messages are stored (a checkpoint may not exist yet after a kill). */
const EMPTY_SESSIONS = `
  select id from sessions s where s.iteration > 0 and not exists (select 1 from messages m where m.session_id = s.id) limit 3`;

/** What is damaged, in words; empty when nothing is. Read errors are findings too. */
export async function findDamage(execute: Execute, dataDir: string, options: { thorough?: boolean } = {}): Promise<string[]> {
  const shrunken = await shrunkenRelations(execute, dataDir).catch((error: Error) => [`its files cannot be read (${error.message})`]);
  if (shrunken && !options.thorough) return shrunken;
  const findings = shrunken ?? [];
  if (!(await hasTable(execute, "sessions"))) return findings; // a new database, not migrated yet
  try {
    for (const table of CHILD_TABLES) {
      const [orphans] = (await execute(orphansOf(table), [], "object")) as Array<{ n: number; example: string | null }>;
      if (orphans && orphans.n > 0)
        findings.push(`${table} holds rows of ${orphans.n} session(s) missing from the sessions table (e.g. ${orphans.example})`);
    }
    for (const row of (await execute(EMPTY_SESSIONS, [], "object")) as Array<{ id: string }>)
      findings.push(`session ${row.id} has run but has no messages`);
  } catch (error) {
    findings.push(`a table cannot be read (${errorMessage(error)})`);
  }
  return findings;
}

async function hasTable(execute: Execute, name: string): Promise<boolean> {
  const rows = (await execute("select to_regclass($1) is not null as present", [`public.${name}`], "object")) as Array<{
    present: boolean;
  }>;
  return rows[0]?.present === true;
}

/**
 * For `hatloop db check`, with the directory held by this process: every table counted twice, by
 * reading the table and by reading its indexes. An index entry that points past a truncated file
 * fails the read or the counts differ. Costs a full read of every table.
 */
export async function findDamageDeeply(exec: (script: string) => Promise<Array<{ rows: unknown[] }>>, tables: string[]): Promise<string[]> {
  const findings: string[] = [];
  for (const table of tables) {
    const count = async (settings: string) => {
      const results = await exec(`begin; ${settings} select count(*)::int as n from "${table}"; commit;`);
      return (results.at(-2)?.rows[0] as { n: number } | undefined)?.n ?? -1;
    };
    try {
      const read = await count(
        "set local enable_indexscan = off; set local enable_indexonlyscan = off; set local enable_bitmapscan = off;",
      );
      const indexed = await count("set local enable_seqscan = off; set local enable_bitmapscan = off;");
      if (read !== indexed) findings.push(`${table}: its indexes list ${indexed} rows, the table holds ${read}`);
    } catch (error) {
      await exec("rollback;").catch(() => {});
      findings.push(`${table}: ${errorMessage(error)}`);
    }
  }
  return findings;
}
