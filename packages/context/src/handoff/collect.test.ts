import { describe, expect, it } from "vitest";
import { collectDecisions } from "./collect.js";
import { withoutScratchpad } from "../messages.js";
import { parseScratchpad } from "./scratchpad.js";

describe("decisions from responses", () => {
  const response = [
    "Planned it.",
    "SCRATCHPAD:## Current Understanding",
    "- src/slugify.js: lowercase, trim, replace runs with a dash",
    "## Key Decisions",
    "- Decided to strip edge dashes after the replacement, because one chain is simpler",
    "EVENT:plan.complete",
  ].join("\n");

  it("drops the SCRATCHPAD block up to the next signal", () => {
    expect(withoutScratchpad(response)).toBe("Planned it.\n\nEVENT:plan.complete");
    expect(withoutScratchpad("no pad here")).toBe("no pad here");
  });

  it("takes decisions from the scratchpad's Key Decisions, not from its understanding", () => {
    const pad = parseScratchpad(response.slice(response.indexOf("SCRATCHPAD:") + "SCRATCHPAD:".length, response.indexOf("EVENT:")));
    const decisions = collectDecisions([], [{ role: "assistant", content: response }], pad).map((d) => d.what);
    expect(decisions.some((d) => d.includes("strip edge dashes"))).toBe(true);
    expect(decisions.some((d) => d.includes("lowercase, trim"))).toBe(false);
  });
});
