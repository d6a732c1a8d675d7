import { textOf } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { memoryStore } from "../store/memory-store.js";
import { GRADER_DIFF, runFixture, type Turn } from "../test-support/loop-fixture.js";
import { defaultConfig } from "../config.js";

// The grader of acceptance criteria (grading.ts), driven through whole loops: the fixture's scripted
// model plays the worker and the grader in turn (the grader's requests say purpose "grader").

const task = [
  "Write the migration guide for v3.",
  "",
  "## Acceptance criteria",
  "- the guide lists every removed flag",
  "- each breaking change has a before/after example",
].join("\n");

const complete: Turn = { text: "Done.", tools: [{ name: "task_complete", input: { summary: "guide written" } }] };
const verdicts = (...met: boolean[]): Turn => ({
  tools: [
    {
      name: "record_verdicts",
      input: {
        verdicts: met.map((m, i) => ({
          criterion: i + 1,
          met: m,
          reason: m ? `criterion ${i + 1} is shown in the guide` : `criterion ${i + 1}: no example for --legacy`,
        })),
      },
    },
  ],
});
/** From the creator a revision goes to, back to the editor who completes. */
const backToEditor: Turn[] = [
  { tools: [{ name: "write_file", input: { path: "docs/guide.md", content: "x" } }] },
  { text: "EVENT:implementation.done added the examples" },
  { text: "EVENT:review.approved" },
];
const grading = { session: { task, hat: "editor" }, grader: true } as const;
const withRevisions = (maxRevisions: number) => ({ grader: { ...defaultConfig().grader, maxRevisions } });

describe("the grader of acceptance criteria", () => {
  it("completes the task when every criterion is met, judged by a fresh context that pays into the session", async () => {
    const run = await runFixture({ ...grading, turns: [complete, verdicts(true, true)] });
    expect(run.outcome).toEqual({ status: "completed", reason: "task complete: quality gates passed", exitCode: 0 });
    const [request] = run.model.requests.filter((r) => r.purpose === "grader");
    expect(request).toMatchObject({ model: "grader-model", toolChoice: "record_verdicts", tools: [{ name: "record_verdicts" }] });
    expect(request!.system[0]).toContain("You are the grader of a coding task");
    // Only the task, the criteria, the gates and the diff: nothing of the worker's conversation.
    expect(request!.messages).toHaveLength(1);
    const asked = textOf(request!.messages[0]!);
    expect(asked).toContain("1. the guide lists every removed flag\n2. each breaking change has a before/after example");
    expect(asked).toContain(GRADER_DIFF);
    expect(asked).not.toContain("Done.");
    const [verdict] = run.of("grader.verdict");
    expect(verdict?.data).toMatchObject({
      round: 1,
      satisfied: true,
      action: "complete",
      revisions: 0,
      maxRevisions: 3,
      model: "grader-model",
    });
    expect(verdict?.data.verdicts.map((v) => v.criterion)).toEqual([
      "the guide lists every removed flag",
      "each breaking change has a before/after example",
    ]);
    expect(await run.store.grades.list(run.session.id)).toMatchObject([{ round: 1, iteration: 1, satisfied: true, costUsd: 0.01 }]);
    // Two calls paid: the worker's and the grader's, each reported as a usage event.
    expect(run.session.costUsd).toBeCloseTo(0.02);
    expect(run.of("model.response")).toHaveLength(2);
  });

  it("sends unmet criteria back as a revision, routed as a rejected review, then completes", async () => {
    const run = await runFixture({ ...grading, turns: [complete, verdicts(true, false), ...backToEditor, complete, verdicts(true, true)] });
    expect(run.outcome.status).toBe("completed");
    expect(run.of("hat.change").map((e) => `${e.data.from}->${e.data.to} (${e.data.topic})`)).toEqual([
      "editor->creator (review.rejected)",
      "creator->critic (implementation.done)",
      "critic->editor (review.approved)",
    ]);
    expect(run.of("grader.verdict").map((e) => [e.data.round, e.data.action, e.data.revisions])).toEqual([
      [1, "revise", 1],
      [2, "complete", 1],
    ]);
    // The creator is told what the grader found unmet, in the message that closes the refused completion.
    const closing = textOf(run.messages.find((m) => textOf(m.message).includes("Completion refused: the grader"))!.message);
    expect(closing).toContain("1 of 2 acceptance criteria unmet. Revision 1 of 3");
    expect(closing).toContain("- each breaking change has a before/after example: criterion 2: no example for --legacy");
    expect(closing).toContain("Hat change: editor -> creator after review.rejected");
    expect((await run.store.grades.list(run.session.id)).map((g) => g.satisfied)).toEqual([false, true]);
  });

  it("stops when the revisions allowed are used up, saying so, resumably", async () => {
    const run = await runFixture({
      ...grading,
      config: withRevisions(1),
      turns: [complete, verdicts(false, false), ...backToEditor, complete, verdicts(true, false)],
    });
    expect(run.outcome).toEqual({
      status: "stopped",
      reason: "grader:max_revisions_reached (1 of 2 acceptance criteria unmet after 1 revisions)",
      exitCode: 1,
    });
    expect(run.session).toMatchObject({ status: "stopped", stopReason: run.outcome.reason });
    expect(run.of("grader.verdict").map((e) => e.data.action)).toEqual(["revise", "stop"]);
    expect(run.of("checkpoint.saved").at(-1)?.data.reason).toBe("pause");
    // Not taken for a completion on resume: the closing message refuses it.
    expect(textOf(run.messages.at(-1)!.message)).toContain("The revisions allowed (1) are used up");
  });

  it("counts the grader's cost in the session's budget", async () => {
    const expensive: Turn = { ...verdicts(false, true), response: { costUsd: 2 } };
    const run = await runFixture({
      ...grading,
      session: { ...grading.session, budgets: { maxIterations: 50, maxTokens: null, maxCostUsd: 1, maxRuntimeMs: null } },
      turns: [complete, expensive, ...backToEditor],
    });
    expect(run.outcome).toEqual({ status: "paused", reason: "budget:cost", exitCode: 3 });
    expect(run.session.costUsd).toBeCloseTo(2.01);
    expect(run.of("budget.exceeded")[0]?.data).toMatchObject({ budget: "cost", limit: 1 });
    expect(run.of("grader.verdict")[0]?.data.costUsd).toBe(2);
  });

  it("keeps the count of revisions across a resume", async () => {
    const store = memoryStore();
    const first = await runFixture({
      ...grading,
      store,
      createSession: true,
      maxIterations: 1,
      config: withRevisions(1),
      turns: [complete, verdicts(false, true)],
    });
    expect(first.outcome.reason).toBe("budget:iterations");
    expect(first.session.hat).toBe("creator");
    const resumed = await runFixture({
      store,
      maxIterations: 10,
      grader: true,
      config: withRevisions(1),
      turns: [...backToEditor.slice(1), complete, verdicts(false, true)],
    });
    // The second unmet grading is revision 2 of 1 allowed: the count from before the resume stands.
    expect(resumed.outcome.reason).toMatch(/^grader:max_revisions_reached/);
    expect(resumed.of("grader.verdict").map((e) => [e.data.round, e.data.revisions])).toEqual([[2, 2]]);
  });

  it("refuses the completion without counting a revision when the grader gives no usable verdict", async () => {
    const run = await runFixture({
      ...grading,
      turns: [
        complete,
        { text: "All good, I think." },
        complete,
        { tools: [{ name: "record_verdicts", input: { verdicts: [{ criterion: 1, met: true, reason: "ok" }] } }] },
        complete,
        verdicts(true, true),
      ],
    });
    expect(run.outcome.status).toBe("completed");
    expect(run.of("error").map((e) => e.data.message)).toEqual([
      "grader: its answer was unusable: it did not call record_verdicts",
      "grader: its answer was unusable: no verdict for criterion 2",
    ]);
    expect(run.of("grader.verdict").map((e) => [e.data.round, e.data.revisions])).toEqual([[1, 0]]);
    expect(run.of("hat.change")).toEqual([]);
  });

  it("does not grade a task without acceptance criteria", async () => {
    const run = await runFixture({ grader: true, session: { hat: "editor" }, turns: [complete] });
    expect(run.outcome.status).toBe("completed");
    expect(run.model.requests.filter((r) => r.purpose === "grader")).toEqual([]);
  });
});
