import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHatloop } from "./support/hatloop.js";
import { expectPublishedEvents } from "./support/published-events.js";

/** The demo prints the handoff between its two parts; it is not an event, so logs do not replay it. */
function withoutHandoff(output: string): string {
  return output.replace(/^# Handoff:[\s\S]*?(?=^hatloop: resuming session)/m, "");
}

/**
 * The commands the demo names (resume, and the closing hint's) are one form, and it runs as printed
 * from where the demo ran: after the quick start `hatloop` is not on the PATH.
 */
function expectCommandsThatWork(output: string, env: Record<string, string>): void {
  const resuming = /demo: resuming with (.+) resume (\w+) --max-iterations 24/.exec(output);
  const closing = /Look around: (.+) show (\w+),/.exec(output);
  expect(resuming?.[1]).toBe(closing?.[1]);
  const [, command, id] = resuming!;
  const shown = spawnSync("sh", ["-c", `${command} show ${id}`], {
    env: { PATH: process.env.PATH, HOME: env.HATLOOP_HOME, HATLOOP_DATABASE__LINGER: "0", ...env },
    encoding: "utf8",
  });
  expect(shown.status, `${command} show ${id}: ${shown.stderr}`).toBe(0);
  expect(shown.stdout).toMatch(/^status +completed/m);
}

describe("hatloop demo", () => {
  // How long the demo takes is a benchmark (pnpm bench startup), not a test: a loaded machine is slow.
  it("completes offline, twice in a row, with plain output in a pipe", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-demo-home-"));
    const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
    const outputs: string[] = [];
    for (let round = 1; round <= 2; round++) {
      const run = await runHatloop(["demo"], env);
      expect(run.code, run.stderr).toBe(0);
      // eslint-disable-next-line no-control-regex -- matching the terminal escape byte is the point
      expect(run.stdout).not.toMatch(/\x1b/);
      expect(run.stdout).toMatch(/hat: planner -> creator \(plan\.complete\)/);
      // Part one stops at its budget, the handoff is shown, part two resumes from the checkpoint.
      expect(run.stdout).toMatch(/budget reached: iterations 6\/6\n.*checkpoint #\d+ \(budget\)/);
      expect(run.stdout).toMatch(/^# Handoff: slugify/m);
      expect(run.stdout).toMatch(/^hatloop: resuming session \w+ as creator/m);
      // The small window makes the guard warn, checkpoint and compact with the structured summary.
      expect(run.stdout).toMatch(/checkpoint #\d+ \(warn-threshold\)/);
      expect(run.stdout).toMatch(/context compacted \(pruning\+llm-summary/);
      expect(run.stdout).toMatch(/gates: test passed, lint FAILED \(exit 1\) => blocked/);
      expect(run.stdout).toMatch(/gates: test passed, lint passed => passed/);
      expect(run.stdout).toMatch(/hatloop: completed: task complete: quality gates passed after 12 iterations/);
      outputs.push(run.stdout);
      if (round === 1) expectCommandsThatWork(run.stdout + run.stderr, env);
    }
    const ls = await runHatloop(["ls", "--json"], env);
    const sessions = JSON.parse(ls.stdout) as Array<{ id: string; status: string }>;
    expect(sessions.map((s) => s.status)).toEqual(["completed", "completed"]);
    // The stored events replay to exactly what the run printed.
    const logs = await runHatloop(["logs", sessions[0]!.id.slice(0, 8)], env);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toBe(withoutHandoff(outputs[1]!));
    // The stored events, as `logs --json` prints them, are events of the published contract.
    const json = await runHatloop(["logs", sessions[0]!.id.slice(0, 8), "--json"], env);
    expect(json.code, json.stderr).toBe(0);
    expectPublishedEvents(json.stdout);
  });
});
