import { describe, expect, it } from "vitest";
import { said, usage, newSession, newCheckpoint, type StoreUnderTest } from "./kit.js";

/** The store contract: sessions: create, read, update, list, delete. */
export function describeSessionsContract(t: StoreUnderTest): void {
  describe("sessions", () => {
    it("round-trip budgets, usage, config and timestamps", async () => {
      const created = await t.store.sessions.create(
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
      await t.store.sessions.update(created.id, {
        status: "running",
        iteration: 3,
        scratchpad: "pad",
        heartbeatAt: new Date(),
        budgets: { ...created.budgets, maxIterations: 99 },
      });
      await t.store.sessions.addUsage(created.id, { inputTokens: 10, outputTokens: 5, cacheReadTokens: 100, cacheWriteTokens: 7 }, 0.25);
      await t.store.sessions.addUsage(created.id, { inputTokens: 1, outputTokens: 1, cacheReadTokens: 1, cacheWriteTokens: 1 }, 0.5);
      const got = await t.store.sessions.get(created.id);
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
      const id = await t.session({ config: { a: { b: 1 } } });
      const got = (await t.store.sessions.get(id))!;
      got.budgets.maxIterations = 1;
      got.usage.inputTokens = 1_000;
      (got.config.a as { b: number }).b = 2;
      got.lease.epoch = 42;
      expect(await t.store.sessions.get(id)).toMatchObject({
        budgets: { maxIterations: 50 },
        usage: { inputTokens: 0 },
        config: { a: { b: 1 } },
        lease: { epoch: 0 },
      });
    });

    it("refuse a second session with the same id", async () => {
      const id = await t.session({ title: "first" });
      await expect(t.store.sessions.create(newSession({ id, title: "second" }))).rejects.toThrow();
      expect((await t.store.sessions.get(id))!.title).toBe("first");
    });

    it("change nothing, and do not fail, when updating a session that does not exist", async () => {
      await t.store.sessions.update("no-such-session", { title: "x" });
      await t.store.sessions.addUsage("no-such-session", usage, 1);
      expect(await t.store.sessions.get("no-such-session")).toBeNull();
    });

    it("resolve ids by unique prefix, report ambiguity, and prefer an exact id", async () => {
      const a = await t.session({ id: "abc11111-0000" });
      await t.session({ id: "abc22222-0000" });
      await t.session({ id: "abc11111-0000-x" });
      expect(await t.store.sessions.resolve("abc2")).toEqual({ session: expect.objectContaining({ id: "abc22222-0000" }) });
      expect(await t.store.sessions.resolve("abc")).toEqual({ ambiguous: expect.arrayContaining(["abc11111-0000", "abc22222-0000"]) });
      expect(await t.store.sessions.resolve("abc11111-0000")).toEqual({ session: expect.objectContaining({ id: a }) });
      expect(await t.store.sessions.resolve("zzz")).toBeNull();
      expect(await t.store.sessions.resolve("%")).toBeNull();
      expect(await t.store.sessions.resolve("_bc")).toBeNull();
    });

    it("list newest first, filtered by status, up to a limit", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await t.session({ status: "failed" }));
      const failed = await t.store.sessions.list({ status: ["failed"], limit: 2 });
      expect(failed.map((s) => s.id)).toEqual([ids[2], ids[1]]);
      expect(
        (await t.store.sessions.list({ status: ["failed", "paused"] })).every((s) => s.status === "failed" || s.status === "paused"),
      ).toBe(true);
      expect((await t.store.sessions.list()).map((s) => s.id)).toContain(ids[0]);
    });

    it("delete with everything that belongs to them; their memories stay, unowned", async () => {
      const id = await t.session();
      await t.store.messages.append(id, [said(1, "hello")]);
      await t.store.checkpoints.append(id, newCheckpoint());
      await t.store.events.append(id, [{ iteration: 0, type: "x", payload: {} }]);
      await t.store.checklist.upsert(id, [{ id: "1", description: "d" }]);
      const memory = await t.store.memories.add({
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
      await t.store.sessions.delete(id);
      expect(await t.store.sessions.get(id)).toBeNull();
      expect(await t.store.messages.count(id)).toBe(0);
      expect(await t.store.checkpoints.latest(id)).toBeNull();
      expect(await t.store.events.tail(id, 10)).toEqual([]);
      expect(await t.store.checklist.list(id)).toEqual([]);
      expect(await t.store.memories.bySession(id)).toEqual([]);
      expect(await t.store.memories.listActive("/repo-delete")).toEqual([
        expect.objectContaining({ id: memory.id, sessionId: null, content: "kept" }),
      ]);
    });

    it("take one answer to an open question, from anyone, and refuse the rest", async () => {
      const id = await t.session();
      expect(await t.store.sessions.answer(id, "yes", "cli")).toBe("no-question");
      expect(await t.store.sessions.answer("no-such-session", "yes", "cli")).toBe("no-session");
      const asked = {
        text: "Keep the v1 API?",
        askedAt: "2026-11-24T04:00:00.000Z",
        iteration: 3,
        answer: null,
        answeredAt: null,
        answeredBy: null,
      };
      await t.store.sessions.update(id, { status: "waiting", question: asked });
      const answers = await Promise.all(["keep it\u0000", "drop it", "maybe"].map((a, i) => t.store.sessions.answer(id, a, `cli@${i}`)));
      expect(answers.filter((a) => a === "answered")).toHaveLength(1);
      expect(answers.filter((a) => a === "already-answered")).toHaveLength(2);
      const { question, status } = (await t.store.sessions.get(id))!;
      expect(status).toBe("waiting");
      expect(question).toMatchObject({ text: "Keep the v1 API?", iteration: 3 });
      expect(["keep it\u0000", "drop it", "maybe"]).toContain(question!.answer);
      expect(question!.answeredBy).toMatch(/^cli@\d$/);
      expect(Number.isNaN(Date.parse(question!.answeredAt!))).toBe(false);
      await t.store.sessions.update(id, { question: null });
      expect((await t.store.sessions.get(id))!.question).toBeNull();
    });
  });
}
