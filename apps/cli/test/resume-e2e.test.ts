import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolResults, toolUses } from "@hatloop/context";
import type { DbStore } from "@hatloop/db";
import { runHatloop, startHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";
import { withStore } from "./support/store.js";

// Resume from every kind of stop, through the real binary and the embedded database.

function setup(steps = 8) {
  const { repo, root } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-resume-"));
  const scenario = writeScenario(root, steps);
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  const run = (extra: string[] = []) => [
    "run",
    "write the notes",
    "--repo",
    repo,
    "--hat",
    "editor",
    "--model",
    `scripted:${scenario}`,
    "--json",
    ...extra,
  ];
  return { repo, env, run, home };
}

/** The stored log is whole: seqs 1..n without gaps or repeats, pairs valid once merged like a request. */
async function expectIntactLog(store: DbStore, sessionId: string) {
  const messages = await store.messages.range(sessionId, 1, 100_000);
  expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
  const conversation = messages.filter((m) => m.kind === "conversation").map((m) => m.message);
  for (let i = 0; i < conversation.length; i++) {
    const ids = toolUses(conversation[i]!).map((u) => u.id);
    if (ids.length && conversation[i + 1]) expect(toolResults(conversation[i + 1]!).map((r) => r.tool_use_id)).toEqual(ids);
  }
  return messages;
}

describe("hatloop resume", () => {
  it("continues a budget-paused session only with a raised budget, from the handoff", async () => {
    const { env, run, home } = setup();
    const first = await runHatloop([...run(["--max-iterations", "3"])], env);
    expect(first.code).toBe(3);
    const [session] = await withStore(home, (s) => s.sessions.list());
    expect(session).toMatchObject({ status: "paused", stopReason: "budget:iterations", iteration: 3 });
    const refused = await runHatloop(["resume", session!.id.slice(0, 8)], env);
    expect(refused).toMatchObject({ code: 2 });
    expect(refused.stderr).toMatch(/stopped at its iterations budget; resume with --max-iterations N/);
    const resumed = await runHatloop(["resume", "--last", "--max-iterations", "20", "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const start = JSON.parse(resumed.stdout.split("\n")[0]!);
    expect(start).toMatchObject({ type: "session.start", data: { resumed: true } });
    await withStore(home, async (store) => {
      const after = (await store.sessions.get(session!.id))!;
      expect(after).toMatchObject({ status: "completed", iteration: 9, budgets: { maxIterations: 23 } });
      const messages = await expectIntactLog(store, session!.id);
      expect(messages.some((m) => m.kind === "injected" && JSON.stringify(m.message).includes("## Resuming session"))).toBe(true);
    });
  });

  it("pauses cleanly on Ctrl-C and resumes", async () => {
    const { env, run, home } = setup();
    const live = startHatloop(run(), env);
    await live.waitFor((e) => e.type === "tool.result" && e.iteration === 3);
    live.kill("SIGINT");
    const ended = await live.done;
    expect(ended.code).toBe(130);
    const session = await withStore(home, async (store) => {
      const [s] = await store.sessions.list();
      expect(s).toMatchObject({ status: "paused", stopReason: "interrupted" });
      expect((await store.checkpoints.latest(s!.id))?.reason).toBe("pause");
      return s!;
    });
    const resumed = await runHatloop(["resume", session.id.slice(0, 8)], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    await withStore(home, async (store) => expectIntactLog(store, session.id));
  });

  it("survives kill -9 mid-iteration: nothing lost or duplicated, the cut tool call gets a result", async () => {
    const { env, run, home } = setup();
    const live = startHatloop(run(), env);
    await live.waitFor((e) => e.type === "tool.call" && e.iteration === 4);
    live.kill("SIGKILL");
    await live.done;
    const before = await withStore(home, async (store) => {
      const [s] = await store.sessions.list();
      return { session: s!, count: await store.messages.count(s!.id) };
    });
    const show = await runHatloop(["show", before.session.id.slice(0, 8)], env);
    expect(show.stdout).toMatch(/^status +interrupted/m);
    const resumed = await runHatloop(["resume", before.session.id.slice(0, 8), "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    await withStore(home, async (store) => {
      const messages = await expectIntactLog(store, before.session.id);
      expect(messages.length).toBeGreaterThan(before.count);
      // The call the kill cut off was answered by resume, not run twice silently: "interrupted", or
      // "finished just before" when the write was done before the kill landed.
      const cut = messages.find((m) =>
        /the hatloop process stopped while this call ran|just before the hatloop process stopped/.test(JSON.stringify(m.message)),
      );
      expect(cut).toBeDefined();
      expect((await store.sessions.get(before.session.id))?.status).toBe("completed");
    });
  });

  it("falls back to the previous checkpoint when the latest is unreadable", async () => {
    const { env, run, home } = setup();
    expect((await runHatloop(run(["--max-iterations", "6"]), env)).code).toBe(3);
    const session = await withStore(home, async (store) => {
      const [s] = await store.sessions.list();
      const latest = (await store.checkpoints.latest(s!.id))!;
      await store.checkpoints.append(s!.id, { ...latest, reason: "pause", context: { version: 1, ranges: [[1, 9_999]], stubbed: [] } });
      return s!;
    });
    const resumed = await runHatloop(["resume", session.id.slice(0, 8), "--max-iterations", "10"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(
      /warning: checkpoint #\d+ is unreadable \(\d+ referenced messages are missing\); falling back to an earlier one/,
    );
  });

  it("refuses to resume over changes made in the worktree, unless --force", async () => {
    const { env, run, home } = setup();
    expect((await runHatloop(run(["--max-iterations", "2"]), env)).code).toBe(3);
    const session = await withStore(home, async (store) => (await store.sessions.list())[0]!);
    writeFileSync(join(session.worktreePath, "src", "value.js"), "export const value = 1; // edited by hand\n");
    const refused = await runHatloop(["resume", session.id.slice(0, 8), "--max-iterations", "10"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/changed since its last checkpoint .* resume with --force to keep them/);
    const forced = await runHatloop(["resume", session.id.slice(0, 8), "--max-iterations", "10", "--force"], env);
    expect(forced.code, forced.stderr).toBe(0);
  });
});
