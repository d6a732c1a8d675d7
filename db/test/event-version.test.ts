import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventPersister, eventReader, parseStoredEvent, type LoopEvent } from "@hatloop/core";
import { migrationsFolder } from "../src/migrate.js";
import { openStore, type DbStore } from "../src/store.js";
import { openTestStore } from "../src/testing.js";
import { newSession } from "./support/session.js";

// Events carry their schema version in events.version (migration 0007). A database written before
// that keeps working: its rows read as version 1.

describe("stored event versions", () => {
  let store: DbStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it("the persister writes the version; rows written without one read as version 1", async () => {
    const s = await store.sessions.create(newSession());
    const persister = createEventPersister(store, s.id, { flushMs: 60_000 });
    persister.sink({ v: 1, sessionId: s.id, iteration: 1, ts: 0, type: "iteration.start", data: { hat: "planner" } });
    await persister.close();
    await store.events.append(s.id, [{ iteration: 1, type: "iteration.end", payload: { hat: "planner", durationMs: 2 } }]);
    const rows = await store.events.after(s.id, 0);
    expect(rows.map((r) => r.version)).toEqual([1, null]);
    expect(rows.map((r) => parseStoredEvent(r))).toMatchObject([
      { ok: true, event: { v: 1, type: "iteration.start" } },
      { ok: true, event: { v: 1, type: "iteration.end", data: { hat: "planner", durationMs: 2 } } },
    ]);
  });

  it("a malformed row or a newer version is skipped by a reader, never thrown", async () => {
    const s = await store.sessions.create(newSession());
    await store.events.append(s.id, [
      { iteration: 1, type: "tool.call", payload: { id: "t1", name: "read_file" }, version: 1 },
      { iteration: 1, type: "tool.call", payload: { id: "t2", name: "read_file", summary: "a" }, version: 2 },
      { iteration: 1, type: "steer", payload: { text: "go on" }, version: 1 },
    ]);
    const reports: string[] = [];
    const read = eventReader((line) => reports.push(line)).read(await store.events.after(s.id, 0));
    expect(read.map((e: LoopEvent) => e.type)).toEqual(["steer"]);
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatch(/"tool\.call" \(iteration 1\): data\.summary: /);
    expect(reports[1]).toMatch(/written by a newer hatloop \(event schema version 2; this one reads version 1\)/);
  });
});

describe("a database from before event versions", () => {
  let dir: string;
  beforeAll(() => {
    // The migrations as they were before 0007: the journal cut back to 0000-0006.
    dir = mkdtempSync(join(tmpdir(), "hatloop-old-migrations-"));
    cpSync(migrationsFolder, dir, { recursive: true });
    const journalPath = join(dir, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
    journal.entries = journal.entries.filter((e) => Number(e.tag.slice(0, 4)) <= 6);
    writeFileSync(journalPath, JSON.stringify(journal));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("migrates without losing its events, which read as version 1", async () => {
    const old = new PGlite();
    await migrate(drizzle({ client: old }), { migrationsFolder: dir });
    await old.exec(`
      insert into sessions (id, task, title, repo_path, worktree_path, branch, base_commit, hat, model)
        values ('old-session', 't', 't', '/r', '/r/w', 'b', '${"a".repeat(40)}', 'planner', 'm');
      insert into events (session_id, iteration, type, payload)
        values ('old-session', 1, 'hat.change', '{"from":"planner","to":"creator","topic":"plan.complete"}');
    `);
    const data = await old.dumpDataDir("none");
    await old.close();
    const upgraded = await openStore({ url: "memory://", loadDataDir: data });
    try {
      const rows = await upgraded.events.after("old-session", 0);
      expect(rows.map((r) => r.version)).toEqual([null]);
      expect(parseStoredEvent(rows[0]!)).toMatchObject({
        ok: true,
        event: { v: 1, type: "hat.change", data: { from: "planner", to: "creator" } },
      });
    } finally {
      await upgraded.close();
    }
  });
});
