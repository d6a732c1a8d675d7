import type { Command } from "commander";
import { defaultPgliteDir } from "@hatloop/db";
import { configFor, withStore } from "../runtime.js";

export function registerDb(program: Command): void {
  const db = program.command("db").description("the database: where it is, migrations");
  db.command("migrate")
    .description("apply pending migrations (they also run at every start)")
    .action(async (_options: unknown, command: Command) => {
      await withStore(command, async (store) => {
        process.stdout.write(`database at ${store.location} is up to date\n`);
      });
    });
  db.command("path")
    .description("print where the data lives: a PGlite directory or the Postgres URL (password hidden)")
    .action((_options: unknown, command: Command) => {
      const url = configFor(command).databaseUrl;
      const where = url ? url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@") : defaultPgliteDir();
      process.stdout.write(`${where}\n`);
    });
}
