import { describe, expect, it } from "vitest";
import { said, usage, newCheckpoint, type StoreUnderTest } from "./kit.js";

/** The store contract: checkpoints, events, the checklist and memories. */
export function describeRecordsContract(t: StoreUnderTest): void {
  describe("checkpoints", () => {
    it("are numbered per session, listed newest first and pruned by retention", async () => {
      const id = await t.session();
      const other = await t.session();
      const reasons = ["start", "interval", "completion", "interval", "interval", "failure", "interval", "interval"] as const;
      for (const reason of reasons) await t.store.checkpoints.append(id, newCheckpoint({ reason }));
      const saved = await t.store.checkpoints.append(other, newCheckpoint());
      expect(saved).toMatchObject({ seq: 1, reason: "interval" });
      expect(saved.createdAt).toBeInstanceOf(Date);
      expect(await t.store.checkpoints.get(id, 1)).toMatchObject({
        seq: 1,
        reason: "start",
        context: { ranges: [[1, 10]], stubbed: ["toolu_1"] },
        handoff: { task_title: "t" },
      });
      expect(await t.store.checkpoints.get(id, 99)).toBeNull();
      expect((await t.store.checkpoints.latest(id))?.seq).toBe(8);
      expect((await t.store.checkpoints.latest(other))?.seq).toBe(1);
      expect(await t.store.checkpoints.prune(id, 2, ["completion", "failure"])).toBe(3); // seqs 2, 4, 5
      expect((await t.store.checkpoints.list(id)).map((c) => c.seq)).toEqual([8, 7, 6, 3, 1]);
      expect((await t.store.checkpoints.list(id, { beforeSeq: 7, limit: 1 })).map((c) => c.seq)).toEqual([6]);
      expect((await t.store.checkpoints.append(id, newCheckpoint())).seq).toBe(9);
    });

    it("prune to the first alone when asked to keep none, and prune nothing when there are few", async () => {
      const id = await t.session();
      for (const reason of ["start", "interval", "interval"] as const) await t.store.checkpoints.append(id, newCheckpoint({ reason }));
      expect(await t.store.checkpoints.prune(id, 5, [])).toBe(0);
      expect(await t.store.checkpoints.prune(id, 0, [])).toBe(2);
      expect((await t.store.checkpoints.list(id)).map((c) => c.seq)).toEqual([1]);
    });
  });

  describe("events", () => {
    it("are appended and read after an id or from the tail, as copies", async () => {
      const id = await t.session();
      await t.store.events.append(
        id,
        Array.from({ length: 5 }, (_, i) => ({ iteration: i, type: "iteration.start", payload: { i, hat: "planner" } })),
      );
      const tail = await t.store.events.tail(id, 2);
      expect(tail.map((e) => (e.payload as { i: number }).i)).toEqual([3, 4]);
      const after = await t.store.events.after(id, tail[0]!.id);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ type: "iteration.start", iteration: 4, payload: { i: 4, hat: "planner" }, sessionId: id });
      expect(after[0]?.createdAt).toBeInstanceOf(Date);
      expect((await t.store.events.after(id, 0, 3)).map((e) => (e.payload as { i: number }).i)).toEqual([0, 1, 2]);
      (after[0]!.payload as { i: number }).i = 99;
      expect((await t.store.events.tail(id, 1))[0]!.payload).toEqual({ i: 4, hat: "planner" });
    });

    it("are read across sessions after an id, oldest first, for one follower of them all", async () => {
      const before = await t.store.events.lastId();
      const [a, b] = [await t.session(), await t.session()];
      await t.store.events.append(a, [{ iteration: 1, type: "iteration.start", payload: { hat: "planner" } }]);
      await t.store.events.append(b, [{ iteration: 1, type: "iteration.start", payload: { hat: "critic" } }]);
      await t.store.events.append(a, [{ iteration: 1, type: "iteration.end", payload: { hat: "planner" } }]);
      const since = await t.store.events.since(before);
      expect(since.map((e) => [e.sessionId, e.type])).toEqual([
        [a, "iteration.start"],
        [b, "iteration.start"],
        [a, "iteration.end"],
      ]);
      expect(await t.store.events.lastId()).toBe(since.at(-1)!.id);
      expect(await t.store.events.since(since[0]!.id, 1)).toMatchObject([{ sessionId: b }]);
      expect((await t.store.events.latest([a, b, "none"])).map((e) => [e.sessionId, e.type]).sort()).toEqual(
        [
          [a, "iteration.end"],
          [b, "iteration.start"],
        ].sort(),
      );
      const ofType = await t.store.events.latest([a, b], ["iteration.start"]);
      expect(ofType.map((e) => [e.sessionId, (e.payload as { hat: string }).hat]).sort()).toEqual(
        [
          [a, "planner"],
          [b, "critic"],
        ].sort(),
      );
      expect(await t.store.events.latest([a, b], ["tool.call"])).toEqual([]);
      expect(await t.store.events.latest([a], [])).toEqual([]);
      expect((await t.store.events.ofTypes(a, ["iteration.end", "tool.call"], 10)).map((e) => e.type)).toEqual(["iteration.end"]);
      await t.store.events.append(
        a,
        [1, 2, 3].map((i) => ({ iteration: i, type: "usage.total", payload: { i } })),
      );
      expect((await t.store.events.ofTypes(a, ["usage.total"], 2)).map((e) => (e.payload as { i: number }).i)).toEqual([2, 3]);
    });

    it("keep NULs and lone surrogates exactly, as messages do", async () => {
      const id = await t.session();
      const odd = "a\u0000b\ud800c\udc00d\uffff";
      await t.store.events.append(id, [{ iteration: 1, type: "tool.result", payload: { text: odd, [`k${odd}`]: [odd] } }]);
      expect((await t.store.events.tail(id, 1))[0]!.payload).toEqual({ text: odd, [`k${odd}`]: [odd] });
      await t.store.messages.append(id, [said(1, odd)]);
      expect((await t.store.messages.range(id, 1, 1))[0]!.message.content).toEqual([{ type: "text", text: odd }]);
    });
  });

  describe("the checklist", () => {
    it("upserts items keeping status and order", async () => {
      const id = await t.session();
      await t.store.checklist.upsert(id, [
        { id: "1", description: "reproduce" },
        { id: "2", description: "fix" },
      ]);
      expect(await t.store.checklist.setStatus(id, "1", "done", null)).toBe(true);
      expect(await t.store.checklist.setStatus(id, "9", "done", null)).toBe(false);
      await t.store.checklist.upsert(id, [
        { id: "1", description: "reproduce the flake" },
        { id: "3", description: "test" },
      ]);
      await t.store.checklist.setStatus(id, "2", "failed", "lint broke");
      expect(await t.store.checklist.list(id)).toEqual([
        { id: "1", description: "reproduce the flake", status: "done", reason: null },
        { id: "2", description: "fix", status: "failed", reason: "lint broke" },
        { id: "3", description: "test", status: "pending", reason: null },
      ]);
    });
  });

  describe("grades", () => {
    it("are kept per round, oldest first, with their verdicts and cost; a round is written once; secrets are redacted", async () => {
      const id = await t.session();
      const grade = (round: number, satisfied: boolean) => ({
        round,
        iteration: round * 3,
        satisfied,
        verdicts: [
          { criterion: "the guide names every flag", met: satisfied, reason: `round ${round}: token sk-ant-api03-${"x".repeat(40)}` },
        ],
        model: "claude-haiku-4-5",
        usage,
        costUsd: 0.01,
      });
      const first = await t.store.grades.append(id, grade(1, false));
      expect(first.verdicts[0]!.reason).not.toContain("sk-ant-api03");
      await t.store.grades.append(id, grade(2, true));
      await expect(t.store.grades.append(id, grade(2, true))).rejects.toThrow();
      const listed = await t.store.grades.list(id);
      expect(listed.map((g) => [g.round, g.iteration, g.satisfied, g.costUsd])).toEqual([
        [1, 3, false, 0.01],
        [2, 6, true, 0.01],
      ]);
      expect(listed[0]).toMatchObject({
        model: "claude-haiku-4-5",
        usage,
        verdicts: [{ criterion: "the guide names every flag", met: false }],
      });
      expect(await t.store.grades.list(await t.session())).toEqual([]);
    });
  });

  describe("memories", () => {
    it("keep facts with supersede history, most confident and most recently changed first", async () => {
      const id = await t.session();
      const base = { sessionId: id, repoPath: `/repo-mem-${id}`, iteration: 1, source: "signal" };
      const a = await t.store.memories.add({
        ...base,
        confidence: 0.5,
        kind: "fact",
        type: "constraint",
        key: "db.port",
        content: "port is 5432",
      });
      const b = await t.store.memories.add({
        ...base,
        confidence: 0.9,
        kind: "fact",
        type: "constraint",
        key: "db.host",
        content: "host is db",
      });
      const c = await t.store.memories.add({
        ...base,
        confidence: 0.5,
        kind: "memory",
        type: "pitfall",
        key: null,
        content: "tests need TZ=UTC",
      });
      expect(a).toMatchObject({ status: "active", supersededBy: null, content: "port is 5432" });
      expect((await t.store.memories.listActive(base.repoPath)).map((m) => m.id)).toEqual([b.id, c.id, a.id]);
      await t.store.memories.updateContent(a.id, "port is 5433", 0.5);
      expect((await t.store.memories.listActive(base.repoPath)).map((m) => m.id)).toEqual([b.id, a.id, c.id]);
      expect((await t.store.memories.listActive(base.repoPath, { limit: 1 })).map((m) => m.id)).toEqual([b.id]);
      const d = await t.store.memories.add({
        ...base,
        confidence: 0.6,
        kind: "fact",
        type: "constraint",
        key: "db.port",
        content: "port is 6543",
      });
      await t.store.memories.supersede(a.id, d.id);
      expect((await t.store.memories.listActive(base.repoPath, { kind: "fact" })).map((m) => m.content)).toEqual([
        "host is db",
        "port is 6543",
      ]);
      const history = await t.store.memories.bySession(id);
      expect(history.map((m) => m.id)).toEqual([d.id, c.id, b.id, a.id]);
      expect(history.find((m) => m.id === a.id)).toMatchObject({ status: "superseded", supersededBy: d.id, content: "port is 5433" });
    });
  });
}
