import { appendFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { textOf, toolResults, toolUses } from "@hatloop/context";
import { openStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { describeOnDrivers } from "../../../db/test/support/drivers.js";
import { runHatloop, startHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { stepSignals, writeScenario } from "./support/scenario.js";

// Chaos: a scripted session is killed with SIGKILL at random moments (model streaming, tools,
// checkpoints, commits), a bounded number of times, and resumed after each kill. The first kill is
// always in the signal window: the answer (with its MEMORY and SCRATCHPAD signals) stored, its tool
// run, its turn not closed. It must end
// completed, with every stored message intact: seqs without gaps or repeats, every tool call
// answered, no iteration answered twice, every write that succeeded in the worktree.
// Each run draws other moments; HATLOOP_CHAOS_SEED replays a failing run (the seed is in the test's name).

const seed = Number(process.env.HATLOOP_CHAOS_SEED ?? Date.now() % 2 ** 31);
const KILLS = 5;
/** A kill lands this long after the run (or resume) started: at most KILLS * 650 ms of progress in all. */
const killDelay = (next: () => number) => 50 + Math.floor(next() * 600);
// The scripted model alone takes STEPS * 3 * DELAY_MS = 5 s (each step's text streams in four
// chunks, three waits), longer than all the kills together let the session run (3.25 s): every kill
// lands before completion, however fast the machine.
const STEPS = 24;
const DELAY_MS = 70;

/** mulberry32: a small seeded generator, so a failure can be replayed exactly. */
function random(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describeOnDrivers("chaos on %s", (driver) => {
  it(`survives ${KILLS} kill -9 at random moments and completes with an intact log (seed ${seed})`, async () => {
    const next = random(seed);
    const { repo, root } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-chaos-"));
    const database = driver === "postgres" ? await createTestDatabase({ migrated: true }) : null;
    const env = {
      HATLOOP_HOME: home,
      HATLOOP_CONFIG: join(home, "none.json"),
      HATLOOP_GATES__DETECT: "false",
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    const scenario = writeScenario(root, STEPS, DELAY_MS, { signals: true });
    // A kill while task_complete runs leaves the call answered "interrupted ... run it again if it is
    // still needed" on resume, and a model calls it again: one more completing turn for each kill.
    const again = { text: "Completing again.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] };
    appendFileSync(scenario, `${JSON.stringify(again)}\n`.repeat(KILLS));
    try {
      let args = ["run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"];
      const ends: string[] = [];
      for (let kill = 0; kill < KILLS; kill++) {
        const live = startHatloop(args, kill === 0 ? { ...env, HATLOOP_FAILPOINT: "after-tool-result" } : env);
        // Once the session runs, at a random moment of the run; a run that ends without starting is a finding.
        const started = await Promise.race([live.waitFor((e) => e.type === "session.start").then(() => true), live.done.then(() => false)]);
        if (!started) {
          const ended = await live.done;
          throw new Error(`run ${kill + 1} ended before it started, with ${ended.code}: ${ended.stderr.trim()}`);
        }
        if (kill > 0) {
          await new Promise((r) => setTimeout(r, killDelay(next)));
          live.kill("SIGKILL");
        }
        const ended = await live.done;
        ends.push(ended.code === null ? "killed" : `exited ${ended.code}`);
        args = ["resume", "--last", "--json"];
      }
      // Every kill landed mid-run: none of the runs got to finish first.
      expect(ends).toEqual(Array<string>(KILLS).fill("killed"));
      const last = await runHatloop(["resume", "--last", "--json"], env);
      const store = await openStore({ url: database?.url ?? join(home, "pglite") });
      try {
        const [session] = await store.sessions.list();
        const said = last.stdout
          .split("\n")
          .filter((l) => /"type":"(error|session\.end)"/.test(l))
          .join("\n");
        if (session!.status !== "completed") {
          const log = (await store.messages.range(session!.id, 1, 10_000)).map(
            (m) =>
              `${m.seq}@${m.iteration}:${m.message.role[0]}:${m.kind}:${toolUses(m.message)
                .map((u) => u.id)
                .join(",")}${toolResults(m.message)
                .map((r) => `<${r.tool_use_id}`)
                .join(",")}`,
          );
          const cps = (await store.checkpoints.list(session!.id)).map((c) => `#${c.seq}@${c.iteration}:${c.reason}`);
          throw new Error(`the final resume ended with ${last.code}: ${last.stderr.trim()} ${said}\n${log.join(" ")}\n${cps.join(" ")}`);
        }
        expect(session!.status).toBe("completed");
        const messages = await store.messages.range(session!.id, 1, 10_000);
        expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
        const answers = messages.filter((m) => m.kind === "conversation" && m.message.role === "assistant");
        expect(answers.map((m) => m.iteration)).toEqual([...new Set(answers.map((m) => m.iteration))]);
        const conversation = messages.filter((m) => m.kind !== "archived").map((m) => m.message);
        const ids = conversation.flatMap((m) => toolUses(m).map((u) => u.id));
        expect(new Set(ids).size).toBe(ids.length);
        conversation.forEach((m, i) => {
          const uses = toolUses(m).map((u) => u.id);
          if (uses.length) expect(toolResults(conversation[i + 1]!).map((r) => r.tool_use_id)).toEqual(uses);
        });
        // Every write the log says succeeded is in the worktree (a write the kill cut off is answered
        // "interrupted", and the scripted model does not redo it).
        const written = conversation.flatMap((m, i) =>
          toolUses(m).filter(
            (u) => u.name === "write_file" && toolResults(conversation[i + 1]!).some((r) => r.tool_use_id === u.id && !r.is_error),
          ),
        );
        expect(written.length).toBeGreaterThan(0);
        for (const use of written) expect(existsSync(join(session!.worktreePath, (use.input as { path: string }).path))).toBe(true);
        // Every kept answer's signals were applied, the one whose turn the first kill left open too.
        const steps = answers.flatMap((m) => /^Step (\d+) /.exec(textOf(m.message))?.[1] ?? []).map(Number);
        expect(steps).toContain(1);
        const remembered = (await store.memories.listActive(session!.repoPath, { kind: "memory", limit: 100 })).map((m) => m.content);
        expect(remembered).toEqual(expect.arrayContaining(steps.map((n) => stepSignals(n).memory)));
        expect(session!.scratchpad).toBe(stepSignals(Math.max(...steps)).scratchpad);
      } finally {
        await store.close();
      }
    } finally {
      await database?.drop();
    }
  });
});
