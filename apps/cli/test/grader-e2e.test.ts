import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loopEventSchema, type LoopEvent } from "@hatloop/core";
import { startFakeAnthropic, type FakeAnthropic } from "@hatloop/model/testing";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// The grader of acceptance criteria through the real binary: with the real SDK against the fake
// Messages API (the request the API gets: tool_choice, the grader's own prompt, the real diff), and
// with a scripted scenario that plays the grader too (`"for": "grader"` lines), criteria from a file.

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

function setup() {
  const { root, repo } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), ANTHROPIC_API_KEY: "sk-test" };
  return { root, repo, env };
}

const eventsOf = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => loopEventSchema.parse(JSON.parse(line)) as LoopEvent);

const verdict = (met: boolean[]) =>
  met.map((m, i) => ({ criterion: i + 1, met: m, reason: m ? `criterion ${i + 1} holds in the diff` : `criterion ${i + 1} is missing` }));

describe("the grader of acceptance criteria, end to end", () => {
  it("asks the real API for verdicts with its own prompt (a repository's override), the task's criteria and the real diff", async () => {
    const { root, repo, env } = setup();
    mkdirSync(join(repo, ".hatloop"));
    writeFileSync(join(repo, ".hatloop", "grader.md"), "You are this repository's strict grader.\n");
    execFileSync("git", ["add", "-A"], { cwd: repo });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "grader prompt"], { cwd: repo });
    const taskFile = join(root, "task.md");
    writeFileSync(
      taskFile,
      "Write the upgrade guide.\n\n## Acceptance criteria\n\n- the guide names the removed flag\n- it has an example\n",
    );
    fake = await startFakeAnthropic({
      replies: [
        {
          content: [
            { type: "tool_use", name: "write_file", input: { path: "UPGRADE.md", content: "The --legacy flag is gone.\n" } },
            { type: "tool_use", name: "task_complete", input: { summary: "guide written" } },
          ],
        },
        { content: [{ type: "tool_use", name: "record_verdicts", input: { verdicts: verdict([true, true]) } }] },
      ],
    });
    const run = await runHatloop(
      ["run", "--task-file", taskFile, "--repo", repo, "--hat", "editor", "--model", "claude-sonnet-5-5", "--json"],
      { ...env, ANTHROPIC_BASE_URL: fake.url },
    );
    expect(run.stderr).not.toMatch(/error|grader/i);
    expect(run.code).toBe(0);
    const grader = fake.messageRequests()[1]!.body as {
      tool_choice?: unknown;
      system: Array<{ text: string }>;
      messages: Array<{ content: Array<{ text: string }> }>;
    };
    expect(grader.tool_choice).toEqual({ type: "tool", name: "record_verdicts" });
    expect(grader.system[0]!.text).toBe("You are this repository's strict grader.");
    expect(grader.messages).toHaveLength(1);
    expect(grader.messages[0]!.content[0]!.text).toContain("1. the guide names the removed flag\n2. it has an example");
    expect(grader.messages[0]!.content[0]!.text).toContain("+The --legacy flag is gone.");
    const verdicts = eventsOf(run.stdout).filter((e) => e.type === "grader.verdict");
    expect(verdicts.map((e) => e.data)).toMatchObject([{ round: 1, satisfied: true, action: "complete", model: "claude-sonnet-5-5" }]);
    const id = eventsOf(run.stdout)[0]!.sessionId;
    const handoff = await runHatloop(["handoff", id], env);
    expect(handoff.stdout).toContain("## Acceptance criteria");
    expect(handoff.stdout).toContain("- [x] it has an example: criterion 2 holds in the diff");
  });

  it("takes --criteria FILE, revises once with a scripted grader, then completes", async () => {
    const { root, repo, env } = setup();
    const criteria = join(root, "criteria.md");
    writeFileSync(criteria, "- NOTES.md says why\n");
    const scenario = join(root, "scenario.jsonl");
    const lines = [
      {
        tools: [
          { name: "write_file", input: { path: "NOTES.md", content: "notes\n" } },
          { name: "task_complete", input: { summary: "s" } },
        ],
      },
      { for: "grader", tools: [{ name: "record_verdicts", input: { verdicts: verdict([false]) } }] },
      { text: "Adding the reason.\nEVENT:implementation.done reason added" },
      { text: "EVENT:review.approved" },
      {
        tools: [
          { name: "write_file", input: { path: "NOTES.md", content: "notes: because\n" } },
          { name: "task_complete", input: { summary: "s" } },
        ],
      },
      { for: "grader", tools: [{ name: "record_verdicts", input: { verdicts: verdict([true]) } }] },
    ];
    writeFileSync(scenario, lines.map((l) => JSON.stringify(l)).join("\n"));
    const run = await runHatloop(
      ["run", "write notes", "--criteria", criteria, "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"],
      env,
    );
    expect(run.stderr).not.toMatch(/error|grader/i);
    expect(run.code).toBe(0);
    const events = eventsOf(run.stdout);
    expect(events.filter((e) => e.type === "grader.verdict").map((e) => e.data.action)).toEqual(["revise", "complete"]);
    expect(events.filter((e) => e.type === "hat.change").map((e) => e.data.to)).toEqual(["creator", "critic", "editor"]);
    const start = events.find((e) => e.type === "session.start");
    expect(start?.data.task).toBe("write notes\n\n## Acceptance criteria\n\n- NOTES.md says why");
  });

  it("stops when the revisions allowed are used up (exit 1), and keeps their count across a resume", async () => {
    const { root, repo, env } = setup();
    const scenario = join(root, "scenario.jsonl");
    const lines = [
      {
        tools: [
          { name: "write_file", input: { path: "NOTES.md", content: "n\n" } },
          { name: "task_complete", input: { summary: "s" } },
        ],
      },
      { for: "grader", tools: [{ name: "record_verdicts", input: { verdicts: verdict([false]) } }] },
      {
        tools: [
          { name: "write_file", input: { path: "NOTES.md", content: "n2\n" } },
          { name: "task_complete", input: { summary: "s" } },
        ],
      },
      { for: "grader", tools: [{ name: "record_verdicts", input: { verdicts: verdict([false]) } }] },
    ];
    writeFileSync(scenario, lines.map((l) => JSON.stringify(l)).join("\n"));
    const task = "write notes\n\n## Done when\n\n- NOTES.md says why";
    const run = await runHatloop(["run", task, "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"], {
      ...env,
      HATLOOP_GRADER__MAX_REVISIONS: "0",
    });
    expect(run.code).toBe(1);
    const end = eventsOf(run.stdout).find((e) => e.type === "session.end");
    expect(end?.data).toMatchObject({
      status: "stopped",
      reason: "grader:max_revisions_reached (1 of 1 acceptance criteria unmet after 0 revisions)",
    });
    // One revision allowed now; the grading before the resume already used it.
    const resumed = await runHatloop(["resume", end!.sessionId, "--json"], { ...env, HATLOOP_GRADER__MAX_REVISIONS: "1" });
    expect(resumed.code).toBe(1);
    const verdicts = eventsOf(resumed.stdout).filter((e) => e.type === "grader.verdict");
    expect(verdicts.map((e) => [e.data.round, e.data.revisions, e.data.action])).toEqual([[2, 2, "stop"]]);
    const show = await runHatloop(["show", end!.sessionId], env);
    expect(show.stdout).toContain(
      "grader     round 2: 0 of 1 criteria met, 2 revisions so far\n  [ ] NOTES.md says why (criterion 1 is missing)",
    );
  });

  it("refuses a criteria file it cannot read with one line and exit 2, creating nothing", async () => {
    const { root, repo, env } = setup();
    const run = await runHatloop(["run", "write notes", "--criteria", join(root, "missing.md"), "--repo", repo, "--plain"], env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toEqual([`hatloop: cannot read the criteria file ${join(root, "missing.md")}: ENOENT`]);
    const ls = await runHatloop(["ls", "--json"], env);
    expect(JSON.parse(ls.stdout)).toEqual([]);
    expect(execFileSync("git", ["branch", "--list"], { cwd: repo, encoding: "utf8" }).trim()).toBe("* main");
    expect(execFileSync("git", ["worktree", "list"], { cwd: repo, encoding: "utf8" }).trim().split("\n")).toHaveLength(1);
  });
});
