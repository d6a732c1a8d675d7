import { afterEach, describe, expect, it } from "vitest";
import type { SessionFilter } from "@hatloop/db";
import { openTestStore } from "@hatloop/db/testing";
import { filteredSessions, type DbStore } from "@hatloop/db";
import { sourceOver } from "../src/fleet/sessions-at-rest.js";
import { sessionsInStore } from "../src/fleet/sessions-in-store.js";
import { newSession } from "./support/session.js";

// The source `ls` lists from at rest filters and pages as the database does (filteredSessions), on
// an embedded database's sessions: the same filters, both ways, the same pages.

let store: DbStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe("sessions at rest, as a source", () => {
  it("filters and pages as the database does", async () => {
    store = await openTestStore("pglite");
    const statuses = ["completed", "failed", "paused", "running", "pending", "stopped", "waiting"] as const;
    for (const [i, status] of statuses.entries())
      await store.sessions.create(newSession({ id: `s${i}`, status, repoPath: i % 3 ? "/repo/a" : "/repo/b" }));
    const records = await filteredSessions(store.database.db, {}, { limit: 100, offset: 0 });
    const atRest = sourceOver(records);
    const inStore = sessionsInStore(store);
    const filters: SessionFilter[] = [
      {},
      { statuses: ["paused", "running"] },
      { repo: "/repo/b" },
      { repo: "/repo/a", statuses: ["completed", "waiting", "pending"] },
      { ids: ["s1", "s4", "nope"] },
      { worker: "w1" },
      { deadLettered: true },
    ];
    for (const filter of filters)
      for (const page of [
        { limit: 100, offset: 0 },
        { limit: 2, offset: 1 },
      ])
        expect(await atRest.page(filter, page), JSON.stringify({ filter, page })).toEqual(await inStore.page(filter, page));
  });
});
