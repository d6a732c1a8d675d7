import type { Command } from "commander";
import { setCommandName, type HatloopConfig } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import { loadConfig } from "./config/load.js";
import { CliError } from "./errors.js";
import { invocation } from "./invocation.js";

// What every command needs: its merged options, the configuration and, when asked, the store.

interface GlobalOptions {
  db?: string;
  repo?: string;
}

function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

export function configFor(command: Command, flags: Record<string, unknown> = {}): HatloopConfig {
  // The hints the loop and the TUI print name the command that started this process (invocation.ts).
  setCommandName(invocation());
  const options = globals(command);
  const env =
    process.env.DATABASE_URL && !process.env.HATLOOP_DATABASE_URL
      ? { ...process.env, HATLOOP_DATABASE_URL: process.env.DATABASE_URL }
      : process.env;
  return loadConfig({ repoDir: options.repo ?? process.cwd(), env, flags: { databaseUrl: options.db, ...flags } }).config;
}

/**
 * `warm`: a short command. On the embedded database, if it opened the directory itself, it leaves a
 * warm holder as it closes (which lingers for database.linger), so the next command finds it started.
 */
export async function openConfiguredStore(config: HatloopConfig, { warm = false } = {}): Promise<DbStore> {
  const { outageTimeout, queryTimeout, linger } = config.database;
  // Imported here: a command loads the database driver when it opens the database.
  const [{ openStore }, { reportOutage }] = await Promise.all([import("@hatloop/db"), import("./outages.js")]);
  return openStore({
    url: config.databaseUrl,
    outageTimeoutMs: outageTimeout,
    queryTimeoutMs: queryTimeout,
    onOutage: reportOutage,
    lingerMs: warm ? linger : 0,
  });
}

/** Opens the store for the duration of `fn` (a short command: see `warm`) and always closes it. */
export async function withStore<T>(
  command: Command,
  fn: (store: DbStore, config: HatloopConfig) => Promise<T>,
  config = configFor(command),
): Promise<T> {
  const store = await openConfiguredStore(config, { warm: true });
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}

export async function resolveSession(store: DbStore, idOrPrefix: string) {
  const found = await store.sessions.resolve(idOrPrefix);
  if (!found) throw new CliError(`no session matches "${idOrPrefix}" (see ${invocation()} ls)`);
  if ("ambiguous" in found) throw new CliError(`"${idOrPrefix}" matches several sessions: ${found.ambiguous.join(", ")}`);
  return found.session;
}
