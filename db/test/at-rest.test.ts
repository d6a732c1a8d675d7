import { existsSync, mkdtempSync, readdirSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionRecord } from "@hatloop/core";
import { sessionsAtRest, tallySessions } from "../src/at-rest.js";
import { readResting, RESTING_FILE, writeResting } from "../src/embedded/resting-file.js";
import { startPglite } from "../src/embedded/pglite-start.js";
import { restingKey, SESSION_LAYOUT } from "../src/embedded/resting-key.js";
import { openStore, type DbStore } from "../src/store.js";
import { filteredSessions, sessionTotals } from "../src/stores/session-listing.js";
import { openTestStore } from "../src/testing.js";
import { describeOnDrivers } from "./support/drivers.js";
import { newSession } from "./support/session.js";

// What a holder of the embedded database leaves for `ls` as it closes (embedded/resting-file.ts),
// and what it must never be: stale (a holder is there, or Postgres started since) or unlike what
// the database itself answers.

const stores: DbStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => {});
});

function freshDir(): string {
  return join(mkdtempSync(join(tmpdir(), "hatloop-at-rest-")), "pglite");
}

async function open(url: string): Promise<DbStore> {
  const store = await openStore({ url });
  stores.push(store);
  return store;
}

/** Sessions of several statuses, costs whose float sum depends on the order they are added in, and ages. */
async function addSessions(store: DbStore): Promise<void> {
  const costs = [0.1, 0.2, 0.3, 1e-17, 0.7, 1 / 3];
  const statuses = ["completed", "failed", "paused", "stopped", "running", "pending"] as const;
  const day = 24 * 3_600_000;
  for (const [i, cost] of costs.entries()) {
    const id = `${"fbdace"[i]}-${i}`;
    await store.sessions.create(newSession({ id, repoPath: i % 2 ? "/repo/a" : "/repo/b" }));
    await store.sessions.update(id, { status: statuses[i]!, costUsd: cost });
    const created = new Date(Date.now() - i * 2 * day - 1234.5);
    await store.database.db.execute(sql`update sessions set created_at = ${created.toISOString()}::timestamptz where id = ${id}`);
  }
}

/** A directory whose holder has left its sessions at rest. */
async function leftAtRest(): Promise<string> {
  const dir = freshDir();
  const store = await open(dir);
  await addSessions(store);
  await store.close();
  expect(sessionsAtRest(dir)).not.toBeNull();
  return dir;
}

const everything = (store: DbStore) => filteredSessions(store.database.db, {}, { limit: 100, offset: 0 });

describe("the sessions an embedded database holds at rest", () => {
  it("are left by the holder as it closes, taken back as the next one opens, and are what the database says", async () => {
    const dir = freshDir();
    const first = await open(dir);
    await addSessions(first);
    const expected = await everything(first);
    await first.close();

    const atRest = sessionsAtRest(dir);
    expect(atRest).toEqual(expected);
    expect(atRest!.map((s) => s.id)).toEqual(expected.map((s) => s.id));
    expect(atRest![0]!.createdAt).toBeInstanceOf(Date);

    const second = await open(dir);
    expect(existsSync(join(dir, RESTING_FILE))).toBe(false);
    expect(sessionsAtRest(dir)).toBeNull();
    await second.sessions.update(expected[0]!.id, { title: "renamed" });
    await second.close();
    expect(sessionsAtRest(dir)?.find((s) => s.id === expected[0]!.id)?.title).toBe("renamed");
  });

  it("no longer count once Postgres has started on the directory without removing them (an older hatloop)", async () => {
    const dir = await leftAtRest();
    const pg = await startPglite(dir);
    expect(sessionsAtRest(dir)).toBeNull(); // started: its control file says so
    await pg.query("update sessions set title = 'changed behind its back'");
    await pg.close();
    expect(existsSync(join(dir, RESTING_FILE))).toBe(true);
    expect(sessionsAtRest(dir)).toBeNull();
  });

  it("no longer count once a file of the directory has changed: damage the database would report is not hidden", async () => {
    const dir = await leftAtRest();
    const wal = readdirSync(join(dir, "pg_wal")).find((name) => /^[0-9A-F]{24}$/.test(name))!;
    const { mtime } = statSync(join(dir, "pg_wal", wal));
    utimesSync(join(dir, "pg_wal", wal), mtime, new Date(mtime.getTime() - 1000));
    expect(sessionsAtRest(dir)).toBeNull();
  });

  it("are of one layout and schema: another hatloop's are not read", async () => {
    const dir = freshDir();
    await (await open(dir)).close();
    expect(readResting(dir, restingKey())).toEqual([]);
    writeResting(dir, `${restingKey()} of another`, []);
    expect(readResting(dir, `${restingKey()} of another`)).toEqual([]);
    expect(sessionsAtRest(dir)).toBeNull();
  });

  it("say which layout of the record they hold: a new field raises it", async () => {
    const store = await openTestStore("pglite");
    stores.push(store);
    await store.sessions.create(newSession({ id: "layout" }));
    const [record] = await everything(store);
    // When this list changes, raise SESSION_LAYOUT (db/src/embedded/resting-key.ts) with it.
    const fields = `id task title repoPath worktreePath branch baseCommit headCommit inPlace hat status stopReason lastError model
      iteration budgets usage costUsd runtimeMs contextTokens contextWindow scratchpad question config gateBaseline pid host createdAt
      updatedAt startedAt finishedAt heartbeatAt lease`.split(/\s+/);
    expect({ layout: SESSION_LAYOUT, fields: Object.keys(record!) }).toEqual({ layout: 1, fields });
  });

  it("keep dates as dates, and are not written when a value could be taken for one", async () => {
    const dir = freshDir();
    await (await open(dir)).close();
    const value = { at: new Date("2026-11-29T07:00:00.123Z"), list: [{ when: new Date(0), note: "$date" }], none: null };
    writeResting(dir, "k", value);
    expect(readResting(dir, "k")).toEqual(value);
    writeResting(dir, "k", { config: { $date: "2026-11-29" } });
    expect(existsSync(join(dir, RESTING_FILE))).toBe(false);
  });

  it("are not left past 2,000 sessions: ls then opens the database", async () => {
    const dir = freshDir();
    const store = await open(dir);
    const insert = (into: DbStore, from: number, to: number) =>
      into.database.db.execute(`insert into sessions (id, task, title, repo_path, worktree_path, branch, base_commit, hat, model)
        select 'bulk-' || n, 'task', 'task', '/r', '/w', 'b', 'c', 'creator', 'm' from generate_series(${from}, ${to}) n`);
    await insert(store, 1, 2_000);
    await store.close();
    expect(sessionsAtRest(dir)).toHaveLength(2_000);
    const again = await open(dir);
    await insert(again, 2_001, 2_001);
    await again.close();
    expect(existsSync(join(dir, RESTING_FILE))).toBe(false);
  });

  it("are not left where a fleet session is, whose queue they would not say", async () => {
    const dir = freshDir();
    const store = await open(dir);
    await store.sessions.create(newSession({ id: "fleet-1" }));
    await store.database.db.execute(sql`insert into fleet_sessions (session_id, repo_url) values ('fleet-1', 'https://example.com/r.git')`);
    await store.close();
    expect(existsSync(join(dir, RESTING_FILE))).toBe(false);
  });
});

describeOnDrivers("tallySessions on %s", (driver) => {
  it("gives the totals query's answer, to the bit", async () => {
    const store = await openTestStore(driver);
    stores.push(store);
    await addSessions(store);
    const records: SessionRecord[] = await everything(store);
    const now = new Date();
    for (const back of [0, 1, 3, 5, 20]) {
      const dayStart = new Date(now.getTime() - back * 24 * 3_600_000);
      const bounds = { dayStart, weekStart: new Date(dayStart.getTime() - 3 * 24 * 3_600_000) };
      const queue = { schema: "pgboss_absent", name: "none" };
      expect(tallySessions(records, bounds)).toStrictEqual(await sessionTotals(store.database.db, bounds, queue));
    }
  });
});
