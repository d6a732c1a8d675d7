import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type DbStore } from "../src/store.js";
import { startDbChild } from "./support/db-child.js";
import { newSession } from "./support/session.js";

// Watchers of the embedded database are told of new events at once: the holder's PGlite LISTENs for
// its clients and pushes each NOTIFY down their socket, and a listener follows the hand-over.

const children: ChildProcess[] = [];
const stores: DbStore[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const s of stores.splice(0)) await s.close().catch(() => {});
});

/** A process holding the directory that writes 5 events to session s1. */
const startHolder = (dir: string) => startDbChild([dir, "s1", "write", "5"], children);

/** Resolves once `count` calls have been recorded. */
function counter() {
  let calls = 0;
  let wake: (() => void) | null = null;
  return {
    hit: () => {
      calls++;
      wake?.();
    },
    async reach(count: number) {
      while (calls < count) await new Promise<void>((resolve) => (wake = resolve));
    },
    get calls() {
      return calls;
    },
  };
}

describe("LISTEN on the embedded database", () => {
  it("pushes the holder's notifications to a client, and keeps listening after it takes over", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "hatloop-listen-")), "pglite");
    const holder = startHolder(dir);
    expect((await holder.next("ready")).role).toBe("owner");
    const client = await openStore({ url: dir });
    stores.push(client);
    expect(client.database.role()).toBe("client");
    await client.sessions.create(newSession({ id: "s1" }));
    await client.sessions.create(newSession({ id: "s2" }));

    const told = counter();
    const unsubscribe = await client.events.subscribe!("s1", told.hit);
    const other = counter();
    await client.events.subscribe!("s2", other.hit);
    const before = told.calls;
    holder.proc.stdin.write("go\n");
    await holder.next("done");
    // Each of the holder's five appends notified this process, while the holder still runs.
    await told.reach(before + 5);
    expect(other.calls).toBe(before);

    holder.proc.stdin.write("exit\n");
    await holder.exited;
    // The hand-over wakes the listener (a notification may have been missed), without a query.
    await told.reach(before + 6);
    expect(client.database.role()).toBe("owner");
    await client.events.append("s1", [{ iteration: 9, type: "after.handover", payload: {} }]);
    await told.reach(before + 7);
    await unsubscribe();
  });
});
