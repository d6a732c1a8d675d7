import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewCheckpoint, NewSession } from "@hatloop/core";
import { openTestStore, testDrivers, type TestDriver } from "../src/testing.js";
import type { DbStore } from "../src/store.js";

function newSession(overrides: Partial<NewSession> = {}): NewSession {
  const id = randomUUID();
  return {
    id,
    task: "make the flaky auth test deterministic",
    title: "flaky auth test",
    repoPath: "/repo",
    worktreePath: `/repo/.worktrees/${id.slice(0, 8)}`,
    branch: `hatloop/${id.slice(0, 8)}`,
    baseCommit: "a".repeat(40),
    inPlace: false,
    hat: "planner",
    model: "claude-sonnet-4-5",
    budgets: { maxIterations: 50, maxTokens: null, maxCostUsd: 5, maxRuntimeMs: 3_600_000 },
    ...overrides,
  };
}

/** Drizzle wraps driver errors ("Failed query: ..."); the database's own message is the cause. */
async function expectDbError(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await promise.then(() => null, (e: unknown) => e as Error & { cause?: Error });
  expect(error, "expected the database to refuse").not.toBeNull();
  expect(`${error?.message} ${error?.cause?.message ?? ""}`).toMatch(pattern);
}

function checkpoint(overrides: Partial<NewCheckpoint> = {}): NewCheckpoint {
  return {
    reason: "interval",
    iteration: 5,
    hat: "creator",
    scratchpad: "## Current Plan\n1. [x] explore",
    context: { ranges: [[1, 10]], stubbed: ["toolu_1"] },
    contextTokens: 12_000,
    summary: null,
    lastError: null,
    failedAt: null,
    recoveryHint: null,
    usage: { inputTokens: 100 },
    state: { checklist: [] },
    handoff: { task_title: "t" },
    gitCommit: "b".repeat(40),
    ...overrides,
  };
}

describe.each(testDrivers())("stores on %s", (driver: TestDriver) => {
  let store: DbStore;
  beforeAll(async () => {
    store = await openTestStore(driver);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("round-trips a session with budgets, usage, config and timestamps", async () => {
    const created = await store.sessions.create(newSession({ config: { gates: { test: "npm test" } }, startedAt: new Date("2026-01-02T03:04:05Z") }));
    expect(created.status).toBe("pending");
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.startedAt?.toISOString()).toBe("2026-01-02T03:04:05.000Z");
    await store.sessions.update(created.id, { status: "running", iteration: 3, scratchpad: "pad", heartbeatAt: new Date(), budgets: { ...created.budgets, maxIterations: 99 } });
    await store.sessions.addUsage(created.id, { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 7 }, 0.25);
    await store.sessions.addUsage(created.id, { inputTokens: 1, outputTokens: 1, cacheReadTokens: 1, cacheWriteTokens: 1 }, 0.5);
    const got = await store.sessions.get(created.id);
    expect(got).toMatchObject({
      status: "running",
      iteration: 3,
      scratchpad: "pad",
      config: { gates: { test: "npm test" } },
      budgets: { maxIterations: 99, maxTokens: null, maxCostUsd: 5, maxRuntimeMs: 3_600_000 },
      usage: { inputTokens: 11, outputTokens: 6, cacheReadTokens: 101, cacheWriteTokens: 8 },
      costUsd: 0.75,
      inPlace: false,
    });
    expect(got?.heartbeatAt).toBeInstanceOf(Date);
  });

  it("resolves ids by unique prefix and reports ambiguity", async () => {
    const a = await store.sessions.create(newSession({ id: "abc11111-0000" }));
    await store.sessions.create(newSession({ id: "abc22222-0000" }));
    expect(await store.sessions.resolve("abc1")).toEqual({ session: expect.objectContaining({ id: a.id }) });
    expect(await store.sessions.resolve("abc")).toEqual({ ambiguous: expect.arrayContaining(["abc11111-0000", "abc22222-0000"]) });
    expect(await store.sessions.resolve("zzz")).toBeNull();
    expect(await store.sessions.resolve("%")).toBeNull();
  });

  it("stores a 1 MB message verbatim and keeps messages append-only", async () => {
    const s = await store.sessions.create(newSession());
    const big = "x".repeat(1024 * 1024);
    const content = [
      { type: "tool_use" as const, id: "toolu_1", name: "read_file", input: { path: "src/auth.ts", nested: { "a b": [1, null, "ü€😀"] } } },
    ];
    await store.messages.append(s.id, [
      { seq: 1, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "user", content: "start" }, tokenEstimate: 1 },
      { seq: 2, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "assistant", content }, tokenEstimate: 20 },
      { seq: 3, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: big }] }, tokenEstimate: 262_144 },
    ]);
    const all = await store.messages.range(s.id, 1, 3);
    expect(all.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(all[1]?.message.content).toEqual(content);
    const result = all[2]?.message.content;
    expect(Array.isArray(result) && result[0]?.type === "tool_result" && result[0].content).toBe(big);
    expect(await store.messages.lastSeq(s.id)).toBe(3);
    expect(await store.messages.count(s.id)).toBe(3);
    expect((await store.messages.bySeqs(s.id, [3, 1])).map((m) => m.seq)).toEqual([1, 3]);
    await expect(
      store.messages.append(s.id, [{ seq: 2, iteration: 1, hat: "x", kind: "conversation", message: { role: "user", content: "dup" }, tokenEstimate: 1 }]),
    ).rejects.toThrow();
    await expectDbError(store.database.db.execute(`update messages set hat = 'x' where session_id = '${s.id}'`), /rows of messages are immutable/);
  });

  it("finds stored messages with full-text search over text and tool content", async () => {
    const s = await store.sessions.create(newSession());
    await store.messages.append(s.id, [
      { seq: 1, iteration: 1, hat: "creator", kind: "conversation", message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "run_command", input: { command: "npm test" } }] }, tokenEstimate: 5 },
      { seq: 2, iteration: 1, hat: "creator", kind: "conversation", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "FAIL src/auth.test.ts: expected token to be refreshed" }] }, tokenEstimate: 5 },
      { seq: 3, iteration: 2, hat: "creator", kind: "conversation", message: { role: "assistant", content: "The tokens are refreshing fine now." }, tokenEstimate: 5 },
    ]);
    const hits = await store.messages.search(s.id, "refreshed token");
    expect(hits.map((h) => h.seq).sort()).toEqual([2, 3]);
    expect((await store.messages.search(s.id, "refreshed", { excludeSeqs: [2] })).map((h) => h.seq)).toEqual([3]);
    expect(await store.messages.search(s.id, "kubernetes")).toEqual([]);
    expect(await store.messages.search(s.id, `"unbalanced ( quote`)).toEqual([]);
  });

  it("numbers checkpoints per session, refuses updates and prunes by retention", async () => {
    const s = await store.sessions.create(newSession());
    const other = await store.sessions.create(newSession());
    const reasons = ["start", "interval", "completion", "interval", "interval", "failure", "interval", "interval"] as const;
    for (const reason of reasons) await store.checkpoints.append(s.id, checkpoint({ reason }));
    await store.checkpoints.append(other.id, checkpoint());
    const first = await store.checkpoints.get(s.id, 1);
    expect(first).toMatchObject({ seq: 1, reason: "start", context: { ranges: [[1, 10]], stubbed: ["toolu_1"] }, handoff: { task_title: "t" } });
    expect((await store.checkpoints.latest(s.id))?.seq).toBe(8);
    expect((await store.checkpoints.latest(other.id))?.seq).toBe(1);
    await expectDbError(store.database.db.execute(`update checkpoints set hat = 'x' where session_id = '${s.id}'`), /rows of checkpoints are immutable/);
    const removed = await store.checkpoints.prune(s.id, 2, ["completion", "failure"]);
    expect(removed).toBe(3); // seqs 2, 4, 5: not first, not kept reasons, not among the last 2
    expect((await store.checkpoints.list(s.id)).map((c) => c.seq)).toEqual([8, 7, 6, 3, 1]);
    expect((await store.checkpoints.list(s.id, { beforeSeq: 7, limit: 1 })).map((c) => c.seq)).toEqual([6]);
  });

  it("appends events and reads them after an id or from the tail", async () => {
    const s = await store.sessions.create(newSession());
    await store.events.append(s.id, Array.from({ length: 5 }, (_, i) => ({ iteration: i, type: "iteration.start", payload: { i, hat: "planner" } })));
    const tail = await store.events.tail(s.id, 2);
    expect(tail.map((e) => (e.payload as { i: number }).i)).toEqual([3, 4]);
    const after = await store.events.after(s.id, tail[0]!.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ type: "iteration.start", iteration: 4, payload: { i: 4, hat: "planner" }, sessionId: s.id });
    expect(after[0]?.createdAt).toBeInstanceOf(Date);
  });

  it("upserts checklist items keeping status and order", async () => {
    const s = await store.sessions.create(newSession());
    await store.checklist.upsert(s.id, [{ id: "1", description: "reproduce" }, { id: "2", description: "fix" }]);
    expect(await store.checklist.setStatus(s.id, "1", "done", null)).toBe(true);
    expect(await store.checklist.setStatus(s.id, "9", "done", null)).toBe(false);
    await store.checklist.upsert(s.id, [{ id: "1", description: "reproduce the flake" }, { id: "3", description: "test" }]);
    await store.checklist.setStatus(s.id, "2", "failed", "lint broke");
    expect(await store.checklist.list(s.id)).toEqual([
      { id: "1", description: "reproduce the flake", status: "done", reason: null },
      { id: "2", description: "fix", status: "failed", reason: "lint broke" },
      { id: "3", description: "test", status: "pending", reason: null },
    ]);
  });

  it("keeps memories and facts with supersede history", async () => {
    const s = await store.sessions.create(newSession());
    const base = { sessionId: s.id, repoPath: "/repo-mem", iteration: 1, confidence: 0.6, source: "signal" };
    const a = await store.memories.add({ ...base, kind: "fact", type: "constraint", key: "db.port", content: "port is 5432" });
    const b = await store.memories.add({ ...base, kind: "fact", type: "constraint", key: "db.port", content: "port is 6543" });
    await store.memories.supersede(a.id, b.id);
    await store.memories.add({ ...base, kind: "memory", type: "pitfall", key: null, content: "tests need TZ=UTC" });
    await store.memories.updateContent(b.id, "port is 6543 (from .env)", 0.9);
    const facts = await store.memories.listActive("/repo-mem", { kind: "fact" });
    expect(facts.map((f) => f.content)).toEqual(["port is 6543 (from .env)"]);
    expect((await store.memories.bySession(s.id)).find((m) => m.id === a.id)).toMatchObject({ status: "superseded", supersededBy: b.id });
    expect(await store.memories.listActive("/repo-mem")).toHaveLength(2);
  });

  it("lists sessions newest first, filtered by status, and deletes with cascade", async () => {
    const s = await store.sessions.create(newSession({ status: "paused" }));
    await store.events.append(s.id, [{ iteration: 0, type: "x", payload: {} }]);
    const paused = await store.sessions.list({ status: ["paused"] });
    expect(paused.map((p) => p.id)).toContain(s.id);
    expect(paused.every((p) => p.status === "paused")).toBe(true);
    await store.sessions.delete(s.id);
    expect(await store.sessions.get(s.id)).toBeNull();
    expect(await store.events.tail(s.id, 10)).toEqual([]);
  });
});
