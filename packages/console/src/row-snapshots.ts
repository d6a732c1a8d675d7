import { createHash, randomBytes } from "node:crypto";
import type { SessionRow } from "./backend.js";
import { rowFingerprint } from "./pages/fleet.js";

// What a sessions table showed when it was drawn, kept until its live stream opens: the stream then
// sends only the rows that changed since (swapped, added, taken out) instead of every row again. A
// browser would otherwise parse and lay out the whole table twice on every load and every filter
// change (500 rows: a task of 100 ms and more), and the server render it twice. A snapshot is used
// once (a stream that reconnects gets every row, as one without a snapshot does) and forgotten after
// KEEP_MS or when more than MAX are waiting.

const KEEP_MS = 60_000;
/** Snapshots waiting at most: a page loaded by a script that never opens the stream costs ~50 KB (500 rows) for a minute. */
const MAX = 100;

/** A row's fingerprint, short: a digest of it (72 bits; kept per row of every waiting snapshot). */
function fingerprint(row: SessionRow): string {
  return createHash("sha1").update(rowFingerprint(row)).digest("base64url").slice(0, 12);
}

export interface TableView {
  /** The rows the page shows, in its order, each with its fingerprint. */
  rows: Map<string, string>;
  /** Whether a row differs from what the page shows. */
  changed(row: SessionRow): boolean;
}

export class RowSnapshots {
  private readonly views = new Map<string, { at: number; rows: Map<string, string> }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps what a table shows; the id goes into its live stream's address. */
  save(rows: readonly SessionRow[]): string {
    const at = this.now();
    for (const [id, view] of this.views) if (at - view.at > KEEP_MS || this.views.size >= MAX) this.views.delete(id);
    const id = randomBytes(9).toString("base64url");
    this.views.set(id, { at, rows: new Map(rows.map((row) => [row.session.id, fingerprint(row)])) });
    return id;
  }

  /** The table a stream's page shows, once; null when unknown, used or forgotten. */
  take(id: string | undefined): TableView | null {
    const view = id === undefined ? undefined : this.views.get(id);
    if (!view || this.now() - view.at > KEEP_MS) return null;
    this.views.delete(id!);
    return { rows: view.rows, changed: (row) => view.rows.get(row.session.id) !== fingerprint(row) };
  }
}
