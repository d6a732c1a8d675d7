import { describe, expect, it } from "vitest";
import { extractNextAction, extractOpenItems } from "./open-items-extract.js";

describe("extractOpenItems", () => {
  it("reads unchecked plan items, TODO lines and blockers", () => {
    const text = [
      "## Current Plan",
      "1. [x] Explore the codebase",
      "2. [ ] Implement the renderer",
      "3. [ ] Add tests",
      "",
      "TODO: document the trade-offs",
      "Blocker: the staging database is down",
    ].join("\n");
    const found = extractOpenItems(text);
    expect(found.openItems).toEqual(["Implement the renderer", "Add tests", "Document the trade-offs"]);
    expect(found.blockers).toEqual(["The staging database is down"]);
  });

  it("reads bullets under Next steps and Blockers headings and ignores 'None'", () => {
    const text = ["**Next steps:**", "- Wire the packet into resume", "- Update the README", "", "## Blockers", "- None currently"].join(
      "\n",
    );
    const found = extractOpenItems(text);
    expect(found.openItems).toEqual(["Wire the packet into resume", "Update the README"]);
    expect(found.blockers).toEqual([]);
    expect(found.nextAction).toBe("Wire the packet into resume");
  });

  it("prefers an explicit next: phrase for the next action", () => {
    const found = extractOpenItems("Added the field. Next: update the database schema.\n\nNext steps:\n- Write docs");
    expect(found.nextAction).toBe("update the database schema.");
  });

  it("dedups semantically and ignores code fences", () => {
    const text = ["- [ ] Send Grigorije a plan", "Still need to send him a plan", "```", "TODO: not real", "```"].join("\n");
    expect(extractOpenItems(text).openItems).toEqual(["Send him a plan"]);
  });
});

describe("extractNextAction", () => {
  it("returns the last next: phrase", () => {
    expect(extractNextAction("Next: read the code. Then more.\nDone.\nNext step: run the tests")).toBe("run the tests");
  });

  it("returns null without one", () => {
    expect(extractNextAction("Nothing planned.")).toBeNull();
  });
});

describe("a lead-in is not a next action", () => {
  it("skips 'Next steps: We should either:' and takes the first item under it", () => {
    expect(extractNextAction("Next steps: We should either:")).toBeNull();
    expect(extractOpenItems("## Next steps\nWe should either:\n- implement the FFT ourselves\n- drop the GPU row").nextAction).toBe(
      "Implement the FFT ourselves",
    );
  });
});
