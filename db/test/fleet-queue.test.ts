import { afterAll, beforeAll, expect, it } from "vitest";
import { fleetSessions } from "../src/schema.js";
import { fleetStore } from "../src/stores/fleet.js";
import { filteredSessions, sessionTotals } from "../src/stores/session-listing.js";
import { workerStore } from "../src/stores/workers.js";
import { openTestStore } from "../src/testing.js";
import type { DbStore } from "../src/store.js";
import { describeOnDrivers } from "./support/drivers.js";
import { newSession } from "./support/session.js";

// The queue's own data on both databases (migration 0011): failed starts and the dead letters, the
// workers table with "lost" read from the heartbeat, and what `ls` filters and totals read. The
// embedded database has no queue schema: no session counts as queued there.

const QUEUE = { schema: "pgboss", name: "hatloop-sessions" };

describeOnDrivers("the fleet queue's data on %s", (driver) => {
  let store: DbStore;
  beforeAll(async () => {
    store = await openTestStore(driver);
  });
  afterAll(async () => {
    await store?.close();
  });

  /** A session with a fleet row (as submit writes it). */
  async function fleetSession(fields: Partial<typeof fleetSessions.$inferInsert> = {}, session = {}): Promise<string> {
    const created = await store.sessions.create(newSession(session));
    await store.database.db.insert(fleetSessions).values({ sessionId: created.id, repoUrl: "git@host:team/app.git", ...fields });
    return created.id;
  }

  it("failed starts are counted, the limit-th dead-letters the session with its error, a start that goes through resets the count, and revive takes it out", async () => {
    const fleet = fleetStore(store.database.db);
    const id = await fleetSession({ priority: 5, base: "dev" });
    expect(await fleet.get(id)).toMatchObject({ priority: 5, base: "dev", schedule: null, startAttempts: 0, deadLetteredAt: null });
    expect(await fleet.startFailed(id, "clone failed", 3)).toEqual({ attempts: 1, deadLettered: false });
    await fleet.startSucceeded(id);
    expect(await fleet.get(id)).toMatchObject({ startAttempts: 0, startError: null });
    expect(await fleet.revive(id)).toBe(false); // not dead-lettered
    expect(await fleet.startFailed(id, "clone failed", 2)).toEqual({ attempts: 1, deadLettered: false });
    expect(await fleet.startFailed(id, "no branch dev", 2)).toEqual({ attempts: 2, deadLettered: true });
    expect(await fleet.get(id)).toMatchObject({ startAttempts: 2, startError: "no branch dev", deadLetteredAt: expect.any(Date) });
    expect(await fleet.revive(id)).toBe(true);
    expect(await fleet.get(id)).toMatchObject({ startAttempts: 0, startError: "no branch dev", deadLetteredAt: null });
    expect(await fleet.revive(id)).toBe(false);
  });

  it("workers: registered, heartbeated and stopped; one whose heartbeat is old reads as lost; takeovers counted", async () => {
    const workers = workerStore(store.database.db);
    const base = { host: "host-a", concurrency: 2 };
    await workers.register({ id: `${driver}-w1`, name: "w1", pid: 11, ...base });
    await workers.register({ id: `${driver}-w2`, name: "w2", pid: 12, ...base });
    await workers.register({ id: `${driver}-w3`, name: "w3", pid: 13, ...base });
    await workers.heartbeat(`${driver}-w1`, 2, "running");
    await workers.tookOver(`${driver}-w1`);
    await workers.tookOver(`${driver}-w1`);
    await workers.heartbeat(`${driver}-w2`, 1, "draining");
    await workers.stopped(`${driver}-w3`);
    await store.database.db.execute(`update workers set heartbeat_at = now() - interval '1 minute' where id = '${driver}-w2'`);
    const listed = await workers.list({ lostAfterMs: 30_000, keepStoppedMs: 86_400_000 });
    const byName = new Map(listed.map((w) => [w.name, w]));
    expect(byName.get("w1")).toMatchObject({ state: "running", running: 2, takeovers: 2, pid: 11, host: "host-a", stoppedAt: null });
    expect(byName.get("w2")).toMatchObject({ state: "lost", running: 1 });
    expect(byName.get("w3")).toMatchObject({ state: "stopped", running: 0, stoppedAt: expect.any(Date) });
    // Long gone: neither the stopped one nor the lost one is listed.
    await store.database.db.execute(
      `update workers set heartbeat_at = now() - interval '2 days', stopped_at = now() - interval '2 days' where id in ('${driver}-w2', '${driver}-w3')`,
    );
    expect((await workers.list({ lostAfterMs: 30_000, keepStoppedMs: 86_400_000 })).map((w) => w.name)).toEqual(["w1"]);
  });

  it("filters by stored status, worker, repository and dead letters, newest first, a page at a time; totals by day, week and status", async () => {
    const db = store.database.db;
    // A database of its own sessions: the totals count every session, so earlier tests' are counted first.
    const before = await sessionTotals(db, { dayStart: new Date(), weekStart: new Date(0) }, QUEUE);
    const repo = `/srv/${driver}/other.git`;
    const a = await fleetSession({ worker: "wa", repoUrl: repo }, { repoPath: repo, status: "completed" });
    const b = await fleetSession({ worker: "wb", repoUrl: repo }, { repoPath: repo, status: "paused" });
    const dead = await fleetSession({ worker: "wa", deadLetteredAt: new Date(), startError: "clone failed" }, { status: "paused" });
    const local = (await store.sessions.create(newSession({ repoPath: repo, status: "running" }))).id;
    await store.sessions.addUsage(a, { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, 1.5);
    await store.sessions.addUsage(local, { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, 0.25);
    // One from last year: in all, not in this week.
    const old = (await store.sessions.create(newSession({ repoPath: repo, status: "failed" }))).id;
    await db.execute(`update sessions set created_at = now() - interval '400 days', cost_usd = 10 where id = '${old}'`);

    const ids = async (filter: Parameters<typeof filteredSessions>[1], limit = 50, offset = 0) =>
      (await filteredSessions(db, filter, { limit, offset })).map((s) => s.id);
    expect(await ids({ repo })).toEqual([local, b, a, old]);
    expect(await ids({ repo }, 2)).toEqual([local, b]);
    expect(await ids({ repo }, 2, 2)).toEqual([a, old]);
    expect(await ids({ repo, statuses: ["paused", "completed"] })).toEqual([b, a]);
    expect(await ids({ worker: "wa" })).toEqual([dead, a]);
    expect(await ids({ worker: "wa", repo })).toEqual([a]);
    expect(await ids({ deadLettered: true })).toEqual([dead]);
    expect(await ids({ worker: "nobody" })).toEqual([]);

    const dayStart = new Date(Date.now() - 3_600_000);
    const after = await sessionTotals(db, { dayStart, weekStart: new Date(Date.now() - 7 * 86_400_000) }, QUEUE);
    expect(after.all.sessions - before.all.sessions).toBe(5);
    expect(after.all.costUsd - before.all.costUsd).toBeCloseTo(11.75);
    expect(after.today.costUsd).toBeCloseTo(1.75 + before.today.costUsd);
    expect(after.week.sessions).toBe(after.all.sessions - 1); // every other session here is new
    expect(after.byStatus["dead-lettered"]! - (before.byStatus["dead-lettered"] ?? 0)).toBe(1);
    expect(after.byStatus.completed! - (before.byStatus.completed ?? 0)).toBe(1);
    expect(after.byStatus.failed! - (before.byStatus.failed ?? 0)).toBe(1);
    expect(after.byStatus.queued).toBeUndefined(); // no queue here
  });
});
