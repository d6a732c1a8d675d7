import type { PGlite } from "@electric-sql/pglite";
import type { RowMode } from "./broker.js";

// Timestamps stay text whichever way a row travels (directly or through the broker's JSON), so
// drizzle maps them the same way on every route.
const TEXT_TYPES = { 1082: String, 1114: String, 1184: String } as unknown as Record<number, (v: string) => unknown>;

export async function queryPglite(pg: PGlite, sql: string, params: unknown[], mode: RowMode): Promise<unknown[]> {
  const result = await pg.query(sql, params, { rowMode: mode, parsers: TEXT_TYPES });
  return result.rows;
}
