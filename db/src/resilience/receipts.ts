import { randomUUID } from "node:crypto";
import type { Execute, RowMode } from "../embedded/broker.js";

// Exactly-once writes over connections that can fail mid-statement. A write whose connection broke
// may or may not have committed, and retrying it blindly could add a second event, a second
// checkpoint or count usage twice. So every write inserts a receipt with a fresh id in the same
// statement (a data-modifying CTE), and a retry reuses the id: if the first attempt committed, the
// retry fails on the receipt's primary key (or another unique key) and the stored receipt answers
// instead, with the rows the first attempt returned. Receipts are pruned after a day.

export interface Receipt {
  id: string;
  sql: string;
  params: unknown[];
}

const WRITE = /^\s*(insert|update|delete)\s/i;
const RETURNING = /\sreturning\s/i;

/** The statement with its receipt, or null for anything that is not a plain INSERT/UPDATE/DELETE. */
export function withReceipt(sql: string, params: unknown[]): Receipt | null {
  if (!WRITE.test(sql)) return null;
  const id = randomUUID();
  const idParam = `$${params.length + 1}`;
  // json (not jsonb) keeps the returned columns in order, as array-mode rows need them.
  const wrapped = RETURNING.test(sql)
    ? `with hatloop_write as (${sql}), hatloop_receipt as (insert into write_receipts (id, result) select ${idParam}, coalesce(json_agg(hatloop_write), '[]') from hatloop_write) select * from hatloop_write`
    : `with hatloop_receipt as (insert into write_receipts (id) values (${idParam})) ${sql}`;
  return { id, sql: wrapped, params: [...params, id] };
}

/** The rows of a write whose receipt is stored (it committed), or null when it never committed. */
export async function committedRows(execute: Execute, receipt: Receipt, mode: RowMode): Promise<unknown[] | null> {
  const [row] = (await execute("select result from write_receipts where id = $1", [receipt.id], "object")) as Array<{ result: unknown }>;
  if (!row) return null;
  const result = (typeof row.result === "string" ? JSON.parse(row.result) : (row.result ?? [])) as Array<Record<string, unknown>>;
  return mode === "array" ? result.map((r) => Object.values(r)) : result;
}

/** Forgets receipts old enough that no retry can still need them. */
export const PRUNE_RECEIPTS = "delete from write_receipts where created_at < now() - interval '1 day'";
