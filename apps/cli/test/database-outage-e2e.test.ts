import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { openStore } from "@hatloop/db";
import { scratchPostgresBinDir, startScratchPostgres, type ScratchPostgres } from "@hatloop/db/testing";
import { HATLOOP_RE, runHatloop, startHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

// Postgres going away under a scripted run of the real binary: stopped, frozen (SIGSTOP), or gone
// for longer than database.outageTimeout. A server of the test's own is stopped and started.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Event = { type: string; iteration: number; ts: number; data: Record<string, unknown> };

describe.runIf(requireOrSkip(scratchPostgresBinDir() !== null, "Postgres's server binaries (initdb, pg_ctl)"))(
  "hatloop run while Postgres goes away",
  () => {
    let server: ScratchPostgres;

    beforeAll(async () => {
      server = await startScratchPostgres();
    });
    afterAll(() => server?.destroy());

    /** A database of the test's own on the scratch server, a repository and a slow scenario. */
    async function setup(env: Record<string, string> = {}) {
      const url = await server.createDatabase();
      const { repo, root } = makeRepo();
      const home = mkdtempSync(join(tmpdir(), "hatloop-outage-"));
      writeFileSync(join(home, "none.json"), "{}");
      const scenario = writeScenario(root, 30, 60);
      const args = ["--db", url, "run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"];
      return { url, args, env: { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), ...env } };
    }

    async function expectIntactLog(url: string) {
      const store = await openStore({ url });
      try {
        const [session] = await store.sessions.list();
        const messages = await store.messages.range(session!.id, 1, 100_000);
        expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
        return { session: session!, messages: messages.length };
      } finally {
        await store.close();
      }
    }

    const eventsOf = (stdout: string) =>
      stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Event);

    it("waits out a 10 s stop, says so, and completes with every message", async () => {
      const { url, args, env } = await setup();
      const live = startHatloop(args, env);
      await live.waitFor((e) => e.type === "tool.result" && e.iteration === 3);
      server.stop();
      const stoppedAt = Date.now();
      await sleep(10_000);
      server.start();
      const restartedAt = Date.now();
      const ran = await live.done;
      expect(ran.code, ran.stderr).toBe(0);
      const outages = eventsOf(ran.stdout).filter((e) => e.type === "database.outage");
      // Said at the stop and at the return; a server still starting up may refuse once more after the
      // first query got through (57P03), which is said again: the states alternate, ending reachable.
      const states = outages.map((e) => e.data.state);
      expect(states.length % 2).toBe(0);
      expect(states).toEqual(states.map((_, i) => (i % 2 === 0 ? "unreachable" : "reachable")));
      expect(outages[0]!.data.message).toMatch(
        new RegExp(
          `^database unreachable at 127\\.0\\.0\\.1:${server.port} \\((connection refused|connection closed|connection reset|server .*57P0[13].*)\\), retrying for up to 5m$`,
        ),
      );
      console.log(
        `outage figures: told ${outages[0]!.ts - stoppedAt} ms after the stop, carried on ${outages[1]!.ts - restartedAt} ms after the restart`,
      );
      const { session } = await expectIntactLog(url);
      expect(session.status).toBe("completed");
    });

    it("waits out a hung server (SIGSTOP for 10 s): a client-side timeout, then it carries on", async () => {
      const { url, args, env } = await setup({ HATLOOP_DATABASE__QUERY_TIMEOUT: "2s" });
      const live = startHatloop(args, env);
      await live.waitFor((e) => e.type === "tool.result" && e.iteration === 3);
      server.freeze();
      try {
        await live.waitFor((e) => e.type === "database.outage");
        await sleep(8_000);
      } finally {
        server.thaw();
      }
      const ran = await live.done;
      expect(ran.code, ran.stderr).toBe(0);
      const outages = eventsOf(ran.stdout).filter((e) => e.type === "database.outage");
      expect(outages[0]!.data.message).toMatch(/\((no answer in 2s|connect timeout)\), retrying for up to 5m$/);
      expect(outages[1]!.data.message).toMatch(/^database reachable again at 127\.0\.0\.1:\d+ after \d/);
      // On a loaded machine a thawed server can be slow past 2 s once more: each outage still ends.
      expect(outages.map((e) => e.data.state)).toEqual(outages.map((_, i) => (i % 2 ? "reachable" : "unreachable")));
      expect(outages.at(-1)!.data.state).toBe("reachable");
      expect((await expectIntactLog(url)).session.status).toBe("completed");
    });

    it("stops past database.outageTimeout with one line and exit 75; resume then completes", async () => {
      const { url, args, env } = await setup({ HATLOOP_DATABASE__OUTAGE_TIMEOUT: "3s" });
      const live = startHatloop(args, env);
      await live.waitFor((e) => e.type === "tool.result" && e.iteration === 3);
      server.stop();
      const stoppedAt = Date.now();
      let ran;
      try {
        ran = await live.done;
      } finally {
        server.start();
      }
      expect(ran.code, ran.stderr).toBe(75);
      // It gave up rather than wait on: the line below says after how long (the figure is the bench's).
      console.log(`outage figures: exited ${Date.now() - stoppedAt} ms after the stop (outageTimeout 3 s)`);
      const lines = ran.stderr.trim().split("\n");
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `^hatloop: database unreachable at 127\\.0\\.0\\.1:${server.port} \\(connection refused\\) for 3(\\.\\d)?s; gave up \\(database\\.outageTimeout is 3s\\); the session is kept: ${HATLOOP_RE} resume ([0-9a-f]{8}) once the database is back$`,
        ),
      );
      expect(ran.stderr).not.toMatch(/Failed query|event writes failed/);
      const id = / resume ([0-9a-f]{8}) once/.exec(lines.at(-1)!)![1]!;
      const resumed = await runHatloop(["--db", url, "resume", id, "--json"], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((await expectIntactLog(url)).session.status).toBe("completed");
    });
  },
);
