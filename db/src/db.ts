import { drizzle } from "drizzle-orm/pg-proxy";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Execute } from "./embedded/broker.js";
import { schema } from "./schema.js";

/** One typed drizzle database, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** hatloop's drizzle database over one way of running a statement. */
export function drizzleOver(execute: Execute): Db {
  return drizzle(async (sql, params, method) => ({ rows: await execute(sql, params, method === "all" ? "array" : "object") }), {
    schema,
    casing: "snake_case",
  });
}
