import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeaseLostError, type NewCheckpoint, type NewMessage, type NewSession, type Store } from "../store/port.js";

// The store port's contract, run on every implementation: the in-memory store the loop's tests use
// (store/memory-store.test.ts) and the database on PGlite and Postgres (db/test/stores.test.ts). What
// one store does here the others must do too, so a loop test on memory means what it says.

export function newSession(overrides: Partial<NewSession> = {}): NewSession {
  const id = overrides.id ?? randomUUID();
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

export function newCheckpoint(overrides: Partial<NewCheckpoint> = {}): NewCheckpoint {
  return {
    reason: "interval",
    iteration: 5,
    hat: "creator",
    scratchpad: "## Current Plan\n1. [x] explore",
    context: { ranges: [[1, 10]], stubbed: ["toolu_1"] },
    contextTokens: 12_000,
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

const said = (seq: number, text: string, kind: NewMessage["kind"] = "conversation"): NewMessage => ({
  seq,
  iteration: 1,
  hat: "creator",
  kind,
  message: { role: "assistant", content: [{ type: "text", text }] },
  tokenEstimate: 1,
});
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

export function describeStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`the store contract on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });
    const session = async (overrides: Partial<NewSession> = {}) => (await store.sessions.create(newSession(overrides))).id;

    describe("sessions", () => {
      it("round-trip budgets, usage, config and timestamps", async () => {
        const created = await store.sessions.create(
          newSession({ config: { gates: { test: "npm test" } }, startedAt: new Date("2026-01-02T03:04:05Z") }),
        );
        expect(created).toMatchObject({
          status: "pending",
          iteration: 0,
          costUsd: 0,
          scratchpad: "",
          contextWindow: 200_000,
          headCommit: null,
          lease: { epoch: 0, holder: null, expiresAt: null },
        });
        expect(created.createdAt).toBeInstanceOf(Date);
        expect(created.startedAt?.toISOString()).toBe("2026-01-02T03:04:05.000Z");
        await store.sessions.update(created.id, {
          status: "running",
          iteration: 3,
          scratchpad: "pad",
          heartbeatAt: new Date(),
          budgets: { ...created.budgets, maxIterations: 99 },
        });
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
        expect(got!.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
      });

      it("hand out copies: changing what was read changes nothing stored", async () => {
        const id = await session({ config: { a: { b: 1 } } });
        const got = (await store.sessions.get(id))!;
        got.budgets.maxIterations = 1;
        got.usage.inputTokens = 1_000;
        (got.config.a as { b: number }).b = 2;
        got.lease.epoch = 42;
        expect(await store.sessions.get(id)).toMatchObject({
          budgets: { maxIterations: 50 },
          usage: { inputTokens: 0 },
          config: { a: { b: 1 } },
          lease: { epoch: 0 },
        });
      });

      it("refuse a second session with the same id", async () => {
        const id = await session({ title: "first" });
        await expect(store.sessions.create(newSession({ id, title: "second" }))).rejects.toThrow();
        expect((await store.sessions.get(id))!.title).toBe("first");
      });

      it("change nothing, and do not fail, when updating a session that does not exist", async () => {
        await store.sessions.update("no-such-session", { title: "x" });
        await store.sessions.addUsage("no-such-session", usage, 1);
        expect(await store.sessions.get("no-such-session")).toBeNull();
      });

      it("resolve ids by unique prefix, report ambiguity, and prefer an exact id", async () => {
        const a = await session({ id: "abc11111-0000" });
        await session({ id: "abc22222-0000" });
        await session({ id: "abc11111-0000-x" });
        expect(await store.sessions.resolve("abc2")).toEqual({ session: expect.objectContaining({ id: "abc22222-0000" }) });
        expect(await store.sessions.resolve("abc")).toEqual({ ambiguous: expect.arrayContaining(["abc11111-0000", "abc22222-0000"]) });
        expect(await store.sessions.resolve("abc11111-0000")).toEqual({ session: expect.objectContaining({ id: a }) });
        expect(await store.sessions.resolve("zzz")).toBeNull();
        expect(await store.sessions.resolve("%")).toBeNull();
        expect(await store.sessions.resolve("_bc")).toBeNull();
      });

      it("list newest first, filtered by status, up to a limit", async () => {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push(await session({ status: "failed" }));
        const failed = await store.sessions.list({ status: ["failed"], limit: 2 });
        expect(failed.map((s) => s.id)).toEqual([ids[2], ids[1]]);
        expect(
          (await store.sessions.list({ status: ["failed", "paused"] })).every((s) => s.status === "failed" || s.status === "paused"),
        ).toBe(true);
        expect((await store.sessions.list()).map((s) => s.id)).toContain(ids[0]);
      });

      it("delete with everything that belongs to them; their memories stay, unowned", async () => {
        const id = await session();
        await store.messages.append(id, [said(1, "hello")]);
        await store.checkpoints.append(id, newCheckpoint());
        await store.events.append(id, [{ iteration: 0, type: "x", payload: {} }]);
        await store.checklist.upsert(id, [{ id: "1", description: "d" }]);
        const memory = await store.memories.add({
          sessionId: id,
          repoPath: "/repo-delete",
          iteration: 1,
          confidence: 0.6,
          source: "signal",
          kind: "memory",
          type: "pitfall",
          key: null,
          content: "kept",
        });
        await store.sessions.delete(id);
        expect(await store.sessions.get(id)).toBeNull();
        expect(await store.messages.count(id)).toBe(0);
        expect(await store.checkpoints.latest(id)).toBeNull();
        expect(await store.events.tail(id, 10)).toEqual([]);
        expect(await store.checklist.list(id)).toEqual([]);
        expect(await store.memories.bySession(id)).toEqual([]);
        expect(await store.memories.listActive("/repo-delete")).toEqual([
          expect.objectContaining({ id: memory.id, sessionId: null, content: "kept" }),
        ]);
      });
    });

    describe("messages", () => {
      it("store a 1 MB message verbatim and stay append-only", async () => {
        const id = await session();
        const big = "x".repeat(1024 * 1024);
        const content = [
          {
            type: "tool_use" as const,
            id: "toolu_1",
            name: "read_file",
            input: { path: "src/auth.ts", nested: { "a b": [1, null, "ü€😀"] } },
          },
        ];
        await store.messages.append(id, [
          { seq: 1, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "user", content: "start" }, tokenEstimate: 1 },
          { seq: 2, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "assistant", content }, tokenEstimate: 20 },
          {
            seq: 3,
            iteration: 1,
            hat: "explorer",
            kind: "conversation",
            message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: big }] },
            tokenEstimate: 262_144,
          },
        ]);
        const all = await store.messages.range(id, 1, 3);
        expect(all.map((m) => m.seq)).toEqual([1, 2, 3]);
        expect(all[1]?.message.content).toEqual(content);
        expect(all[1]?.createdAt).toBeInstanceOf(Date);
        const result = all[2]?.message.content;
        expect(Array.isArray(result) && result[0]?.type === "tool_result" && result[0].content).toBe(big);
        expect(await store.messages.lastSeq(id)).toBe(3);
        expect(await store.messages.count(id)).toBe(3);
        expect((await store.messages.bySeqs(id, [3, 1])).map((m) => m.seq)).toEqual([1, 3]);
        expect(await store.messages.bySeqs(id, [])).toEqual([]);
        expect((await store.messages.range(id, 2, 9)).map((m) => m.seq)).toEqual([2, 3]);
        await expect(store.messages.append(id, [said(2, "dup")])).rejects.toThrow();
        expect(await store.messages.lastSeq("no-messages")).toBe(0);
      });

      it("write a batch whole or not at all: a duplicate anywhere in it refuses every message", async () => {
        const id = await session();
        await store.messages.append(id, [said(1, "one"), said(2, "two")]);
        await expect(store.messages.append(id, [said(3, "three"), said(2, "again")])).rejects.toThrow();
        await expect(store.messages.append(id, [said(4, "four"), said(4, "twice")])).rejects.toThrow();
        expect((await store.messages.range(id, 1, 10)).map((m) => m.seq)).toEqual([1, 2]);
      });

      it("hand out copies", async () => {
        const id = await session();
        await store.messages.append(id, [said(1, "original")]);
        const [read] = await store.messages.range(id, 1, 1);
        (read!.message.content as Array<{ text: string }>)[0]!.text = "changed";
        expect((await store.messages.range(id, 1, 1))[0]!.message.content).toEqual([{ type: "text", text: "original" }]);
      });
    });

    describe("search", () => {
      it("finds words in text and tool content, stemmed, all words required", async () => {
        const id = await session();
        await store.messages.append(id, [
          {
            seq: 1,
            iteration: 1,
            hat: "creator",
            kind: "conversation",
            message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "run_command", input: { command: "npm test" } }] },
            tokenEstimate: 5,
          },
          {
            seq: 2,
            iteration: 1,
            hat: "creator",
            kind: "conversation",
            message: {
              role: "user",
              content: [{ type: "tool_result", tool_use_id: "t1", content: "FAIL src/auth.test.ts: expected token to be refreshed" }],
            },
            tokenEstimate: 5,
          },
          {
            seq: 3,
            iteration: 2,
            hat: "creator",
            kind: "conversation",
            message: { role: "assistant", content: "The tokens are refreshing fine now." },
            tokenEstimate: 5,
          },
        ]);
        expect((await store.messages.search(id, "refreshed token")).map((h) => h.seq).sort()).toEqual([2, 3]);
        expect((await store.messages.search(id, "refreshed", { excludeSeqs: [2] })).map((h) => h.seq)).toEqual([3]);
        expect((await store.messages.search(id, "npm")).map((h) => h.seq)).toEqual([1]);
        expect(await store.messages.search(id, "kubernetes")).toEqual([]);
        expect(await store.messages.search(id, "refreshed kubernetes")).toEqual([]);
        expect((await store.messages.search(id, "kubernetes OR npm")).map((h) => h.seq)).toEqual([1]);
        expect((await store.messages.search(id, "token -fine")).map((h) => h.seq)).toEqual([2]);
        expect(await store.messages.search(id, `"unbalanced ( quote`)).toEqual([]);
        expect(await store.messages.search(id, "the")).toEqual([]); // only a stop word
        expect(await store.messages.search(id, "")).toEqual([]);
        const [hit] = await store.messages.search(id, "npm");
        expect(hit).toMatchObject({ seq: 1, kind: "conversation", iteration: 1, role: "assistant", message: { role: "assistant" } });
        expect(hit!.rank).toBeGreaterThan(0);
      });

      it("returns the newest of equally good matches first, up to the limit, of the kinds asked for", async () => {
        const id = await session();
        await store.messages.append(id, [
          said(1, "marmot"),
          said(2, "marmot", "injected"),
          said(3, "marmot"),
          said(4, "marmot", "archived"),
        ]);
        expect((await store.messages.search(id, "marmot")).map((h) => h.seq)).toEqual([4, 3, 2, 1]);
        expect((await store.messages.search(id, "marmot", { limit: 2 })).map((h) => h.seq)).toEqual([4, 3]);
        expect((await store.messages.search(id, "marmot", { kinds: ["conversation", "injected"] })).map((h) => h.seq)).toEqual([3, 2, 1]);
        expect((await store.messages.search(id, "marmot", { kinds: [] })).map((h) => h.seq)).toEqual([4, 3, 2, 1]);
        expect(await store.messages.search(`${id}-other`, "marmot")).toEqual([]);
      });
    });

    describe("checkpoints", () => {
      it("are numbered per session, listed newest first and pruned by retention", async () => {
        const id = await session();
        const other = await session();
        const reasons = ["start", "interval", "completion", "interval", "interval", "failure", "interval", "interval"] as const;
        for (const reason of reasons) await store.checkpoints.append(id, newCheckpoint({ reason }));
        const saved = await store.checkpoints.append(other, newCheckpoint());
        expect(saved).toMatchObject({ seq: 1, reason: "interval" });
        expect(saved.createdAt).toBeInstanceOf(Date);
        expect(await store.checkpoints.get(id, 1)).toMatchObject({
          seq: 1,
          reason: "start",
          context: { ranges: [[1, 10]], stubbed: ["toolu_1"] },
          handoff: { task_title: "t" },
        });
        expect(await store.checkpoints.get(id, 99)).toBeNull();
        expect((await store.checkpoints.latest(id))?.seq).toBe(8);
        expect((await store.checkpoints.latest(other))?.seq).toBe(1);
        expect(await store.checkpoints.prune(id, 2, ["completion", "failure"])).toBe(3); // seqs 2, 4, 5
        expect((await store.checkpoints.list(id)).map((c) => c.seq)).toEqual([8, 7, 6, 3, 1]);
        expect((await store.checkpoints.list(id, { beforeSeq: 7, limit: 1 })).map((c) => c.seq)).toEqual([6]);
        expect((await store.checkpoints.append(id, newCheckpoint())).seq).toBe(9);
      });

      it("prune to the first alone when asked to keep none, and prune nothing when there are few", async () => {
        const id = await session();
        for (const reason of ["start", "interval", "interval"] as const) await store.checkpoints.append(id, newCheckpoint({ reason }));
        expect(await store.checkpoints.prune(id, 5, [])).toBe(0);
        expect(await store.checkpoints.prune(id, 0, [])).toBe(2);
        expect((await store.checkpoints.list(id)).map((c) => c.seq)).toEqual([1]);
      });
    });

    describe("events", () => {
      it("are appended and read after an id or from the tail, as copies", async () => {
        const id = await session();
        await store.events.append(
          id,
          Array.from({ length: 5 }, (_, i) => ({ iteration: i, type: "iteration.start", payload: { i, hat: "planner" } })),
        );
        const tail = await store.events.tail(id, 2);
        expect(tail.map((e) => (e.payload as { i: number }).i)).toEqual([3, 4]);
        const after = await store.events.after(id, tail[0]!.id);
        expect(after).toHaveLength(1);
        expect(after[0]).toMatchObject({ type: "iteration.start", iteration: 4, payload: { i: 4, hat: "planner" }, sessionId: id });
        expect(after[0]?.createdAt).toBeInstanceOf(Date);
        expect((await store.events.after(id, 0, 3)).map((e) => (e.payload as { i: number }).i)).toEqual([0, 1, 2]);
        (after[0]!.payload as { i: number }).i = 99;
        expect((await store.events.tail(id, 1))[0]!.payload).toEqual({ i: 4, hat: "planner" });
      });

      it("keep NULs and lone surrogates exactly, as messages do", async () => {
        const id = await session();
        const odd = "a\u0000b\ud800c\udc00d\uffff";
        await store.events.append(id, [{ iteration: 1, type: "tool.result", payload: { text: odd, [`k${odd}`]: [odd] } }]);
        expect((await store.events.tail(id, 1))[0]!.payload).toEqual({ text: odd, [`k${odd}`]: [odd] });
        await store.messages.append(id, [said(1, odd)]);
        expect((await store.messages.range(id, 1, 1))[0]!.message.content).toEqual([{ type: "text", text: odd }]);
      });
    });

    describe("the checklist", () => {
      it("upserts items keeping status and order", async () => {
        const id = await session();
        await store.checklist.upsert(id, [
          { id: "1", description: "reproduce" },
          { id: "2", description: "fix" },
        ]);
        expect(await store.checklist.setStatus(id, "1", "done", null)).toBe(true);
        expect(await store.checklist.setStatus(id, "9", "done", null)).toBe(false);
        await store.checklist.upsert(id, [
          { id: "1", description: "reproduce the flake" },
          { id: "3", description: "test" },
        ]);
        await store.checklist.setStatus(id, "2", "failed", "lint broke");
        expect(await store.checklist.list(id)).toEqual([
          { id: "1", description: "reproduce the flake", status: "done", reason: null },
          { id: "2", description: "fix", status: "failed", reason: "lint broke" },
          { id: "3", description: "test", status: "pending", reason: null },
        ]);
      });
    });

    describe("memories", () => {
      it("keep facts with supersede history, most confident and most recently changed first", async () => {
        const id = await session();
        const base = { sessionId: id, repoPath: `/repo-mem-${id}`, iteration: 1, source: "signal" };
        const a = await store.memories.add({
          ...base,
          confidence: 0.5,
          kind: "fact",
          type: "constraint",
          key: "db.port",
          content: "port is 5432",
        });
        const b = await store.memories.add({
          ...base,
          confidence: 0.9,
          kind: "fact",
          type: "constraint",
          key: "db.host",
          content: "host is db",
        });
        const c = await store.memories.add({
          ...base,
          confidence: 0.5,
          kind: "memory",
          type: "pitfall",
          key: null,
          content: "tests need TZ=UTC",
        });
        expect(a).toMatchObject({ status: "active", supersededBy: null, content: "port is 5432" });
        expect((await store.memories.listActive(base.repoPath)).map((m) => m.id)).toEqual([b.id, c.id, a.id]);
        await store.memories.updateContent(a.id, "port is 5433", 0.5);
        expect((await store.memories.listActive(base.repoPath)).map((m) => m.id)).toEqual([b.id, a.id, c.id]);
        expect((await store.memories.listActive(base.repoPath, { limit: 1 })).map((m) => m.id)).toEqual([b.id]);
        const d = await store.memories.add({
          ...base,
          confidence: 0.6,
          kind: "fact",
          type: "constraint",
          key: "db.port",
          content: "port is 6543",
        });
        await store.memories.supersede(a.id, d.id);
        expect((await store.memories.listActive(base.repoPath, { kind: "fact" })).map((m) => m.content)).toEqual([
          "host is db",
          "port is 6543",
        ]);
        const history = await store.memories.bySession(id);
        expect(history.map((m) => m.id)).toEqual([d.id, c.id, b.id, a.id]);
        expect(history.find((m) => m.id === a.id)).toMatchObject({ status: "superseded", supersededBy: d.id, content: "port is 5433" });
      });
    });

    describe("the session lease", () => {
      it("is taken by one runner at a time, renewed while held, and free again once released or expired", async () => {
        const id = await session();
        const first = await store.sessions.acquireLease(id, "host:1", 60_000);
        expect(first).toBe(1);
        expect(await store.sessions.acquireLease(id, "host:2", 60_000)).toBeNull();
        expect(await store.sessions.renewLease(id, first!, 60_000)).toBe(true);
        expect((await store.sessions.get(id))!.lease).toMatchObject({ epoch: 1, holder: "host:1" });
        // A holder known to be dead is taken over at once; an expired lease by anyone.
        const second = await store.sessions.acquireLease(id, "host:2", 1, { takeOverFrom: "host:1" });
        expect(second).toBe(2);
        expect(await store.sessions.renewLease(id, first!, 60_000)).toBe(false);
        for (;;) {
          const lease = (await store.sessions.get(id))!.lease;
          if (lease.expiresAt && lease.expiresAt.getTime() < Date.now()) break;
          await new Promise((r) => setTimeout(r, 5));
        }
        expect(await store.sessions.acquireLease(id, "host:3", 60_000)).toBe(3);
        await store.sessions.releaseLease(id, 3);
        expect((await store.sessions.get(id))!.lease).toMatchObject({ epoch: 3, holder: null, expiresAt: null });
        expect(await store.sessions.acquireLease(id, "host:4", 60_000)).toBe(4);
        expect(await store.sessions.acquireLease("no-such-session", "host:1", 60_000)).toBeNull();
      });

      it("lets exactly one of many simultaneous runners win", async () => {
        const id = await session();
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.sessions.acquireLease(id, `host:${i}`, 60_000)));
        expect(results.filter((r) => r !== null)).toEqual([1]);
      });

      it("refuses every write of a runner whose lease was taken, and keeps the new runner's", async () => {
        const id = await session();
        const old = store.fenced(id, (await store.sessions.acquireLease(id, "host:old", 1))!);
        await old.messages.append(id, [said(1, "hi")]); // still the holder: written
        await old.checklist.upsert(id, [{ id: "0", description: "before" }]);
        const now = store.fenced(id, (await store.sessions.acquireLease(id, "host:new", 60_000, { takeOverFrom: "host:old" }))!);
        const refused = [
          () => old.messages.append(id, [said(2, "hi")]),
          () => old.checkpoints.append(id, newCheckpoint()),
          () => old.events.append(id, [{ iteration: 1, type: "error", payload: {} }]),
          () => old.checklist.upsert(id, [{ id: "1", description: "x" }]),
          () => old.checklist.setStatus(id, "0", "done", null),
          () => old.sessions.update(id, { iteration: 9 }),
          () => old.sessions.addUsage(id, usage, 1),
        ];
        for (const write of refused) await expect(write()).rejects.toBeInstanceOf(LeaseLostError);
        expect(await store.messages.lastSeq(id)).toBe(1);
        expect(await store.checkpoints.latest(id)).toBeNull();
        expect(await store.events.tail(id, 10)).toEqual([]);
        expect(await store.checklist.list(id)).toEqual([{ id: "0", description: "before", status: "pending", reason: null }]);
        expect((await store.sessions.get(id))!).toMatchObject({ iteration: 0, costUsd: 0 });

        await now.messages.append(id, [said(2, "hi")]);
        await now.checkpoints.append(id, newCheckpoint());
        await now.checklist.upsert(id, [{ id: "1", description: "x" }]);
        await now.checklist.setStatus(id, "1", "done", null);
        await now.sessions.update(id, { iteration: 2 });
        expect(await store.messages.lastSeq(id)).toBe(2);
        expect((await store.sessions.get(id))!.iteration).toBe(2);
      });

      it("fences only its own session: other sessions and plain writes are unaffected", async () => {
        const a = await session();
        const b = await session();
        const fenced = store.fenced(a, (await store.sessions.acquireLease(a, "host:a", 60_000))!);
        await fenced.messages.append(b, [said(1, "hi")]);
        await store.messages.append(a, [said(1, "hi")]);
        await store.sessions.update(a, { title: "renamed" });
        expect((await store.sessions.get(a))!.title).toBe("renamed");
      });
    });
  });
}
