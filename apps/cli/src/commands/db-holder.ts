import type { Command } from "commander";
import { defaultPgliteDir, holderOf, locateDatabase, type HolderStatus } from "@hatloop/db";
import { CliError } from "../errors.js";
import { invocation } from "../invocation.js";
import { jsonText, printText } from "../output/print.js";
import { configFor } from "../runtime.js";

// `hatloop db status` and `hatloop db release`: the process that holds the embedded database, the
// warm holder a short command leaves among them (database.linger), is shown and can be stopped.
// Neither opens the database: they read its lock.

/** The data directory of the embedded database; null on Postgres or in memory. */
function embeddedDir(command: Command): string | null {
  const location = locateDatabase(configFor(command).databaseUrl ?? defaultPgliteDir());
  return location.driver === "pglite" ? location.dataDir : null;
}

const seconds = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

function describe(holder: HolderStatus): string {
  const memory = holder.rssMb === null ? "" : `, ${holder.rssMb} MiB`;
  const who = `process ${holder.pid}${memory}, since ${holder.since}`;
  if (holder.warmForMs === undefined)
    return `held by ${who} (a run, worker, watcher or command; it is the database's holder while it runs)`;
  return `held by a warm holder: ${who}; it exits ${seconds(holder.warmForMs)} after its last client (database.linger). Stop it now with: ${invocation()} db release; leave none with HATLOOP_DATABASE__LINGER=0`;
}

export function statusAction(flags: { json?: boolean }, command: Command): void {
  const dataDir = embeddedDir(command);
  const holder = dataDir === null ? null : holderOf(dataDir);
  if (flags.json) return printText(jsonText({ embedded: dataDir !== null, dataDir, holder }));
  if (dataDir === null) return printText("a Postgres server: hatloop keeps no process of its own between commands");
  printText(`embedded database at ${dataDir}`);
  printText(holder ? describe(holder) : "not held: the next command opens it itself");
}

/** Stops the warm holder (it closes the directory as at the end of its linger); anything else holding it is left alone. */
export async function releaseAction(_options: unknown, command: Command): Promise<void> {
  const dataDir = embeddedDir(command);
  if (dataDir === null) throw new CliError("hatloop db release is for the embedded database; a Postgres server holds nothing for hatloop");
  const holder = holderOf(dataDir);
  if (!holder) return printText("not held: nothing to release");
  if (holder.warmForMs === undefined)
    throw new CliError(
      `the database is held by process ${holder.pid}, which is not a warm holder (a run, worker or watcher); stop that instead`,
    );
  try {
    process.kill(holder.pid, "SIGTERM");
  } catch {
    // Gone already.
  }
  for (const started = Date.now(); holderOf(dataDir)?.pid === holder.pid;) {
    if (Date.now() - started > 30_000) throw new CliError(`the warm holder (process ${holder.pid}) did not exit within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  printText(`released: the warm holder (process ${holder.pid}) closed the database`);
}
