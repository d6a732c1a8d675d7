import { buildHandoff } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { pullRequestBody } from "./pr-body.js";

const git = {
  branch: "hatloop/abc",
  headCommit: "c".repeat(40),
  modifiedFiles: [],
  createdFiles: ["UPGRADE.md"],
  deletedFiles: [],
  diffstat: { filesChanged: 1, insertions: 3, deletions: 0 },
  commits: [],
};
const handoff = (acceptance: Parameters<typeof buildHandoff>[0]["acceptance"]) =>
  buildHandoff({
    generatedAt: "2026-11-28T18:00:00Z",
    task: { title: "Write the upgrade guide" },
    hat: "editor",
    git,
    acceptance,
    completed: true,
  });

describe("a pull request's description", () => {
  it("holds the grader's verdicts on the acceptance criteria, after the gates", () => {
    const body = pullRequestBody({
      sessionId: "0123456789abcdef",
      task: "Write the upgrade guide",
      gates: null,
      handoff: handoff({
        rounds: 2,
        revisions: 1,
        satisfied: true,
        verdicts: [{ criterion: "names the removed flag", met: true, reason: "UPGRADE.md, first line" }],
      }),
    });
    const head = body.slice(0, body.indexOf("<details>"));
    expect(head).toMatch(
      /## Quality gates\n\n.*\n\n## Acceptance criteria\n\nall met; graded 2 times, 1 revision\n\n- \[x\] names the removed flag: UPGRADE\.md, first line/,
    );
  });

  it("has no such section for a task without criteria", () => {
    const body = pullRequestBody({ sessionId: "0123456789abcdef", task: "t", gates: null, handoff: handoff(null) });
    expect(body).not.toContain("Acceptance criteria");
  });
});
