import type { Command } from "commander";
import { defaultPgliteDir, displayLocation, locateDatabase, openDb } from "@hatloop/db";
import { CliError } from "../errors.js";
import { configFor, withStore } from "../runtime.js";
import { printText } from "../output/print.js";

/** `hatloop db migrate`: opening the store applies them. */
export async function migrateAction(_options: unknown, command: Command): Promise<void> {
  await withStore(command, async (store) => {
    printText(`database at ${store.location} is up to date`);
  });
}

export function pathAction(_options: unknown, command: Command): void {
  printText(displayLocation(locateDatabase(configFor(command).databaseUrl ?? defaultPgliteDir())));
}

export async function checkAction(_options: unknown, command: Command): Promise<void> {
  const config = configFor(command);
  const database = await openDb({ url: config.databaseUrl, allowDamaged: true });
  try {
    if (!database.checkDamage)
      throw new CliError(
        `hatloop db check is for the embedded database; ${database.location} is a Postgres server (use its own tools: amcheck, pg_checksums)`,
      );
    const { findings, deep } = await database.checkDamage();
    const scope = deep ? "every table read whole" : "quick checks only: another process holds it";
    if (!findings.length) return void process.stdout.write(`database at ${database.location}: no damage found (${scope})\n`);
    process.stdout.write(`database at ${database.location} is damaged (${scope}):\n${findings.map((f) => `  - ${f}\n`).join("")}`);
    process.stdout.write(
      `restore ${database.location} from a backup, or move it aside (mv ${database.location} ${database.location}.damaged) to start an empty one\n`,
    );
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}
