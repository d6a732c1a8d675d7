import type { Command } from "commander";
import { defaultPgliteDir, displayLocation, locateDatabase, openDb } from "@hatloop/db";
import { CliError } from "../errors.js";
import { configFor, withStore } from "../runtime.js";
import { printText } from "../output/print.js";

export function registerDb(program: Command): void {
  const db = program.command("db").description("the database: where it is, migrations, damage");
  db.command("migrate")
    .description("apply pending migrations (they also run at every start)")
    .action(async (_options: unknown, command: Command) => {
      await withStore(command, async (store) => {
        printText(`database at ${store.location} is up to date`);
      });
    });
  db.command("path")
    .description("print where the data lives: a PGlite directory or the Postgres URL (password hidden)")
    .action((_options: unknown, command: Command) => {
      printText(displayLocation(locateDatabase(configFor(command).databaseUrl ?? defaultPgliteDir())));
    });
  db.command("check")
    .description("look for damage in the embedded database (truncated or missing files, rows that lost their session); exit 1 if any")
    .action(async (_options: unknown, command: Command) => {
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
    });
}
