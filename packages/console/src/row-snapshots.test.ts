import { describe, expect, it } from "vitest";
import type { SessionRow } from "./backend.js";
import { RowSnapshots } from "./row-snapshots.js";
import { sessionRecord } from "./test-support/fake-backend.js";

// The snapshots a sessions table's stream starts from: used once, forgotten after a minute or when
// too many wait, and telling a changed row from one that shows the same.

const row = (id: string, iteration = 3): SessionRow => ({
  session: sessionRecord(id, { iteration }),
  status: "running",
  worker: null,
  repo: null,
  priority: null,
  lastEvent: null,
});

describe("row snapshots", () => {
  it("tell a row that changed from one that shows the same, once", () => {
    const snapshots = new RowSnapshots(() => 0);
    const id = snapshots.save([row("a"), row("b")]);
    const view = snapshots.take(id)!;
    expect([...view.rows.keys()]).toEqual(["a", "b"]);
    expect(view.changed(row("a"))).toBe(false);
    expect(view.changed(row("a", 4))).toBe(true);
    expect(view.changed({ ...row("b"), lastEvent: { at: new Date(5), text: "model notice: hi" } })).toBe(true);
    expect(snapshots.take(id)).toBeNull();
    expect(snapshots.take(undefined)).toBeNull();
  });

  it("forget a snapshot after a minute, and the oldest when a hundred wait", () => {
    let now = 0;
    const snapshots = new RowSnapshots(() => now);
    const old = snapshots.save([row("a")]);
    now = 60_001;
    expect(snapshots.take(old)).toBeNull();
    const ids = Array.from({ length: 101 }, () => snapshots.save([row("a")]));
    expect(snapshots.take(ids[0])).toBeNull();
    expect(snapshots.take(ids[1])).not.toBeNull();
    expect(snapshots.take(ids[100])).not.toBeNull();
  });
});
