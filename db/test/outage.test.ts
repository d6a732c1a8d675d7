import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import type { OutageReport } from "../src/resilience/outage.js";
import { DatabaseUnavailableError } from "../src/resilience/outage.js";
import { openStore, type DbStore } from "../src/store.js";
import { scratchPostgresBinDir, startScratchPostgres, type ScratchPostgres } from "../src/testing-server.js";
import { newSession } from "./support/session.js";

// The database going away under a store that is in use: a Postgres server of the test's own is
// stopped, started, frozen (SIGSTOP) and thawed.

/** Waits for a condition, never for a time (the runner's ceiling ends a wait that never ends). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function seedSession(store: DbStore, id: string) {
  await store.sessions.create(newSession({ id }));
}

describe.runIf(requireOrSkip(scratchPostgresBinDir() !== null, "Postgres's server binaries (initdb, pg_ctl)"))(
  "a Postgres server that goes away",
  () => {
    let server: ScratchPostgres;
    const stores: DbStore[] = [];

    beforeAll(async () => {
      server = await startScratchPostgres();
    });

    afterAll(async () => {
      for (const store of stores) await store.close().catch(() => {});
      server?.destroy();
    });

    async function open(options: { outageTimeoutMs?: number; queryTimeoutMs?: number }) {
      const reports: OutageReport[] = [];
      const store = await openStore({ url: server.url, ...options, onOutage: (report) => reports.push(report) });
      stores.push(store);
      return { store, reports };
    }

    it("waits while the server is stopped, says so once, and carries on when it is back", async () => {
      const { store, reports } = await open({ outageTimeoutMs: 120_000 });
      await seedSession(store, "stopped");
      server.stop();
      let writing: Promise<unknown>;
      try {
        writing = store.events.append("stopped", [{ iteration: 1, type: "during.outage", payload: {} }]).catch((error: unknown) => error);
        await until(() => reports.length > 0);
        expect(reports).toEqual([
          {
            state: "unreachable",
            location: `127.0.0.1:${server.port}`,
            cause: expect.stringMatching(/connection refused|57P0[13]|connection closed/),
            retryForMs: 120_000,
          },
        ]);
      } finally {
        server.start();
      }
      expect(await writing).toBeUndefined();
      expect(reports.map((r) => r.state)).toEqual(["unreachable", "reachable"]);
      expect((await store.events.tail("stopped", 10)).map((e) => e.type)).toEqual(["during.outage"]);
    });

    it("gives up past the bound with one line naming the server and the cause, then fails at once", async () => {
      const { store } = await open({ outageTimeoutMs: 1_500 });
      await seedSession(store, "given-up");
      server.stop();
      try {
        const failed = await store.sessions.get("given-up").catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(DatabaseUnavailableError);
        // Gave up at the bound by its own clock ("for 1.x s"); how long that took here is the bench's figure.
        expect((failed as Error).message).toMatch(
          new RegExp(
            `^database unreachable at 127\\.0\\.0\\.1:${server.port} \\(connection refused\\) for 1\\.\\ds; gave up \\(database\\.outageTimeout is 1\\.5s\\)$`,
          ),
        );
        const again = Date.now();
        const second = await store.events.append("given-up", [{ iteration: 1, type: "x", payload: {} }]).catch((error: unknown) => error);
        // Every later query fails with the same verdict, without another wait.
        expect(second).toBeInstanceOf(DatabaseUnavailableError);
        expect((second as Error).message).toBe((failed as Error).message);
        console.log(`outage figures: a query after giving up failed in ${Date.now() - again} ms`);
      } finally {
        server.start();
      }
    });

    it("times out on a hung server, waits for it, and applies a write that was in flight exactly once", async () => {
      const { store, reports } = await open({ outageTimeoutMs: 120_000, queryTimeoutMs: 1_000 });
      await seedSession(store, "frozen");
      server.freeze();
      let thawed = false;
      try {
        // Sent to the frozen server: it runs when the server thaws, after the client gave up on it.
        const writing = store.events.append("frozen", [{ iteration: 1, type: "in.flight", payload: {} }]).catch((error: unknown) => error);
        await until(() => reports.length > 0);
        expect(reports).toEqual([expect.objectContaining({ state: "unreachable", cause: "no answer in 1s" })]);
        server.thaw();
        thawed = true;
        expect(await writing).toBeUndefined();
      } finally {
        if (!thawed) server.thaw();
      }
      expect(reports.map((r) => r.state)).toEqual(["unreachable", "reachable"]);
      expect((await store.events.tail("frozen", 10)).map((e) => e.type)).toEqual(["in.flight"]);
    });

    it("never retries a real SQL error", async () => {
      const { store, reports } = await open({ outageTimeoutMs: 120_000 });
      await seedSession(store, "sql-error");
      const message = { seq: 1, iteration: 1, hat: "planner", kind: "conversation" as const, tokenEstimate: 1 };
      await store.messages.append("sql-error", [{ ...message, message: { role: "user", content: [{ type: "text", text: "first" }] } }]);
      const failed = await store.messages
        .append("sql-error", [{ ...message, message: { role: "user", content: [{ type: "text", text: "other" }] } }])
        .catch((error: Error) => error);
      expect((failed as Error).cause).toMatchObject({ code: "23505", constraint_name: "messages_session_seq_uq" });
      expect(reports).toEqual([]); // not taken for an outage: no wait, no retry
    });
  },
);
