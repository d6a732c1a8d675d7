import { describe, expect, it } from "vitest";
import { LeaseLostError } from "../../store/port.js";
import { said, usage, newCheckpoint, type StoreUnderTest } from "./kit.js";

/** The store contract: the session lease and the write fence. */
export function describeLeaseContract(t: StoreUnderTest): void {
  describe("the session lease", () => {
    it("is taken by one runner at a time, renewed while held, and free again once released or expired", async () => {
      const id = await t.session();
      const first = await t.store.sessions.acquireLease(id, "host:1", 60_000);
      expect(first).toBe(1);
      expect(await t.store.sessions.acquireLease(id, "host:2", 60_000)).toBeNull();
      expect(await t.store.sessions.renewLease(id, first!, 60_000)).toBe(true);
      expect((await t.store.sessions.get(id))!.lease).toMatchObject({ epoch: 1, holder: "host:1" });
      // A holder known to be dead is taken over at once; an expired lease by anyone.
      const second = await t.store.sessions.acquireLease(id, "host:2", 1, { takeOverFrom: "host:1" });
      expect(second).toBe(2);
      expect(await t.store.sessions.renewLease(id, first!, 60_000)).toBe(false);
      for (;;) {
        const lease = (await t.store.sessions.get(id))!.lease;
        if (lease.expiresAt && lease.expiresAt.getTime() < Date.now()) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(await t.store.sessions.acquireLease(id, "host:3", 60_000)).toBe(3);
      await t.store.sessions.releaseLease(id, 3);
      expect((await t.store.sessions.get(id))!.lease).toMatchObject({ epoch: 3, holder: null, expiresAt: null });
      expect(await t.store.sessions.acquireLease(id, "host:4", 60_000)).toBe(4);
      expect(await t.store.sessions.acquireLease("no-such-session", "host:1", 60_000)).toBeNull();
    });

    it("lets exactly one of many simultaneous runners win", async () => {
      const id = await t.session();
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => t.store.sessions.acquireLease(id, `host:${i}`, 60_000)));
      expect(results.filter((r) => r !== null)).toEqual([1]);
    });

    it("refuses every write of a runner whose lease was taken, and keeps the new runner's", async () => {
      const id = await t.session();
      const old = t.store.fenced(id, (await t.store.sessions.acquireLease(id, "host:old", 1))!);
      await old.messages.append(id, [said(1, "hi")]); // still the holder: written
      await old.checklist.upsert(id, [{ id: "0", description: "before" }]);
      const now = t.store.fenced(id, (await t.store.sessions.acquireLease(id, "host:new", 60_000, { takeOverFrom: "host:old" }))!);
      const refused = [
        () => old.messages.append(id, [said(2, "hi")]),
        () => old.checkpoints.append(id, newCheckpoint()),
        () => old.events.append(id, [{ iteration: 1, type: "error", payload: {} }]),
        () => old.checklist.upsert(id, [{ id: "1", description: "x" }]),
        () => old.checklist.setStatus(id, "0", "done", null),
        () => old.sessions.update(id, { iteration: 9 }),
        () => old.sessions.addUsage(id, usage, 1),
        () => old.grades.append(id, { round: 1, iteration: 1, satisfied: true, verdicts: [], model: "m", usage, costUsd: 0 }),
      ];
      for (const write of refused) await expect(write()).rejects.toBeInstanceOf(LeaseLostError);
      expect(await t.store.messages.lastSeq(id)).toBe(1);
      expect(await t.store.checkpoints.latest(id)).toBeNull();
      expect(await t.store.events.tail(id, 10)).toEqual([]);
      expect(await t.store.grades.list(id)).toEqual([]);
      expect(await t.store.checklist.list(id)).toEqual([{ id: "0", description: "before", status: "pending", reason: null }]);
      expect((await t.store.sessions.get(id))!).toMatchObject({ iteration: 0, costUsd: 0 });

      await now.messages.append(id, [said(2, "hi")]);
      await now.checkpoints.append(id, newCheckpoint());
      await now.checklist.upsert(id, [{ id: "1", description: "x" }]);
      await now.checklist.setStatus(id, "1", "done", null);
      await now.sessions.update(id, { iteration: 2 });
      expect(await t.store.messages.lastSeq(id)).toBe(2);
      expect((await t.store.sessions.get(id))!.iteration).toBe(2);
    });

    it("fences only its own session: other sessions and plain writes are unaffected", async () => {
      const a = await t.session();
      const b = await t.session();
      const fenced = t.store.fenced(a, (await t.store.sessions.acquireLease(a, "host:a", 60_000))!);
      await fenced.messages.append(b, [said(1, "hi")]);
      await t.store.messages.append(a, [said(1, "hi")]);
      await t.store.sessions.update(a, { title: "renamed" });
      expect((await t.store.sessions.get(a))!.title).toBe("renamed");
    });
  });
}
