import { describe, expect, it } from "vitest";
import { buildHandoff } from "./build.js";
import { renderHandoffJson } from "./render-json.js";
import { renderHandoffMarkdown } from "./render-markdown.js";
import { parseHandoffYaml, renderHandoffYaml } from "./render-yaml.js";
import { richInputs } from "./test-support/fixtures.js";
import { validateHandoff } from "./validate.js";

const acceptance = {
  rounds: 2,
  revisions: 1,
  satisfied: true,
  verdicts: [
    { criterion: "the guide names every removed flag", met: true, reason: "UPGRADE.md lists --legacy and --old" },
    { criterion: "each change has an example", met: true, reason: "three before/after blocks" },
  ],
};

describe("the handoff's acceptance criteria", () => {
  it("carries the grader's latest verdicts through Markdown, JSON and YAML", () => {
    const handoff = buildHandoff({ ...richInputs(), acceptance });
    expect(handoff.acceptance).toEqual(acceptance);
    expect(renderHandoffMarkdown(handoff)).toContain(
      "## Acceptance criteria\n\nall met; graded 2 times, 1 revision\n\n- [x] the guide names every removed flag: UPGRADE.md lists --legacy and --old",
    );
    expect(validateHandoff(JSON.parse(renderHandoffJson(handoff)))).toEqual(handoff);
    expect(parseHandoffYaml(renderHandoffYaml(handoff))).toEqual(handoff);
  });

  it("is null for a task that was never graded, and for handoffs written before it existed", () => {
    const handoff = buildHandoff(richInputs());
    expect(handoff.acceptance).toBeNull();
    expect(renderHandoffMarkdown(handoff)).not.toContain("## Acceptance criteria");
    const { acceptance: _a, ...older } = handoff;
    expect(validateHandoff(older).acceptance).toBeNull();
  });
});
