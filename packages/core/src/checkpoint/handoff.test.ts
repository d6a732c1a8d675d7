import { describe, expect, it } from "vitest";
import { validateHandoff } from "@hatloop/context";
import type { GateReport } from "../ports/tools.js";
import { runFixture } from "../test-support/loop-fixture.js";

const blocked: GateReport = {
  passed: false,
  checks: [
    {
      name: "test",
      command: "npm test",
      exitCode: 1,
      passed: false,
      acceptable: false,
      timedOut: false,
      durationMs: 5,
      newFailures: ["FAIL sum.test.ts > adds"],
      output: "FAIL sum.test.ts > adds",
    },
  ],
};

describe("the handoff of a completed session", () => {
  it("is closed: completed, nothing left but review, the failure the passing gates resolved is gone", async () => {
    const run = await runFixture({
      session: { hat: "editor" },
      gates: [blocked, { passed: true, checks: [] }],
      turns: [
        {
          text: "SCRATCHPAD:\n## Last Action\nNext: write the test for step 1.\nCHECKLIST_ADD:1:sum adds",
          tools: [{ name: "task_complete" }],
        },
        { text: "CHECKLIST_DONE:1\nFixed the addition.", tools: [{ name: "task_complete" }] },
      ],
    });
    expect(run.outcome.status).toBe("completed");
    const checkpoints = await run.store.checkpoints.list(run.session.id, { limit: 10 });
    const [completion, before] = checkpoints.map((c) => validateHandoff(c.handoff));
    expect(checkpoints[0]!.reason).toBe("completion");
    expect(before!.working.status).toBe("in_progress");
    expect(completion!.working).toMatchObject({ status: "completed", interrupted: false, last_failure: null });
    expect(completion!.working.next_action).toBe(
      `Nothing left to do: the task is complete and its quality gates passed; review branch ${completion!.branch} and merge it`,
    );
    expect(completion!.continuation_prompt).not.toMatch(/Continue working on|step 1/);
    expect(completion!.remaining_items).toEqual([]);
  });
});
