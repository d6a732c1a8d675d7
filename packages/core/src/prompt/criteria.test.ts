import { describe, expect, it } from "vitest";
import { acceptanceCriteria, withCriteria } from "./criteria.js";

describe("acceptance criteria", () => {
  it("are the list items under an Acceptance criteria heading, up to the next heading of its level", () => {
    const task = [
      "# Refactor the parser",
      "Make it readable.",
      "## Acceptance criteria",
      "- [ ] no function over 40 lines",
      "* every error names the line",
      "  and the column",
      "1. the README shows one example",
      "### Notes",
      "- still a criterion's section: a deeper heading does not end it",
      "## Background",
      "- not a criterion",
    ].join("\n");
    expect(acceptanceCriteria(task)).toEqual([
      "no function over 40 lines",
      "every error names the line and the column",
      "the README shows one example",
      "still a criterion's section: a deeper heading does not end it",
    ]);
  });

  it("take 'Done when' and 'Definition of done' headings, and paragraphs when the section has no list", () => {
    expect(acceptanceCriteria("Fix it.\n\n### Done when:\nThe guide reads well\nto a newcomer.\n\nEvery flag is documented.")).toEqual([
      "The guide reads well to a newcomer.",
      "Every flag is documented.",
    ]);
    expect(acceptanceCriteria("# Definition of Done\n+ one")).toEqual(["one"]);
  });

  it("are none without such a section", () => {
    expect(acceptanceCriteria("make the flaky test deterministic\n- a list, but not criteria")).toEqual([]);
    expect(acceptanceCriteria("## Acceptance criteria\n\n")).toEqual([]);
  });

  it("come from a criteria file appended under the heading", () => {
    const task = withCriteria("Write the guide.\n", "- every flag\n- an example each\n");
    expect(task).toBe("Write the guide.\n\n## Acceptance criteria\n\n- every flag\n- an example each\n");
    expect(acceptanceCriteria(task)).toEqual(["every flag", "an example each"]);
  });
});
