import { describe, expect, it } from "vitest";
import { extractDecisionFromResponse, MAX_DECISION_LENGTH } from "./decision-extract.js";

describe("extractDecisionFromResponse", () => {
  it("extracts a tier 1 explicit marker over an earlier tier 3 bold line", () => {
    const text = ["**Merge strategy overview**", "Some context about the merge.", "Decision: use a lowercase set-diff for the merge."].join("\n");
    expect(extractDecisionFromResponse(text)).toBe("Use a lowercase set-diff for the merge.");
  });

  it("prefers tier 2 intent over tier 3 and tier 4", () => {
    const text = ["- **Cache**: keep it", "- Remove the old cache layer", "I'll switch the store to PGlite for embedded runs."].join("\n");
    expect(extractDecisionFromResponse(text)).toBe("I'll switch the store to PGlite for embedded runs.");
  });

  it("uses a bold-prefixed bullet (tier 3) when there is no marker or intent", () => {
    const text = ["Here is what changed.", "- **Atomic writes** keep checkpoints consistent", "- fixed the typo"].join("\n");
    expect(extractDecisionFromResponse(text)).toBe("Atomic writes keep checkpoints consistent");
  });

  it("returns null for conversational filler", () => {
    expect(extractDecisionFromResponse("You're right, I overcomplicated it.")).toBeNull();
    expect(extractDecisionFromResponse("Ohoho. Claude Code Remote Control")).toBeNull();
    expect(extractDecisionFromResponse("Hmm, let me think about that for a second.")).toBeNull();
  });

  it("skips a filler line and takes the real decision further down", () => {
    const text = "You're right, I overcomplicated it.\n\nThe fix is to replace the fingerprint dedup with semantic dedup.";
    expect(extractDecisionFromResponse(text)).toBe("The fix is to replace the fingerprint dedup with semantic dedup.");
  });

  it("returns null for a code-fence-only response", () => {
    const text = "```ts\n// Decision: use a map\nconst cache = new Map();\n- add entries\n```";
    expect(extractDecisionFromResponse(text)).toBeNull();
  });

  it("extracts an action-verb bullet (tier 4), preferring a verb in the first five words", () => {
    const text = ["Summary of the session:", "- the tests in the parser module were all eventually updated", "- Add a retry around the flaky network call"].join("\n");
    expect(extractDecisionFromResponse(text)).toBe("Add a retry around the flaky network call");
  });

  it("ignores tier 4 bullets without action verbs", () => {
    expect(extractDecisionFromResponse("- the weather was nice\n- lunch was good today")).toBeNull();
  });

  it("rejects questions", () => {
    expect(extractDecisionFromResponse("Should we use Redis for the queue?")).toBeNull();
    expect(extractDecisionFromResponse("Let's use Redis for the queue?")).toBeNull();
  });

  it("rejects fragments and lead-in lines", () => {
    expect(extractDecisionFromResponse("Plan:\n")).toBeNull();
    expect(extractDecisionFromResponse("I'll do the following:")).toBeNull();
    expect(extractDecisionFromResponse("Going with")).toBeNull();
  });

  it("rejects intent lines that name no action and have no structure", () => {
    expect(extractDecisionFromResponse("I'll be right back with more.")).toBeNull();
  });

  it("rejects code lines outside fences", () => {
    expect(extractDecisionFromResponse("- const x = foo(bar) => { return baz[0]; }")).toBeNull();
  });

  it("never returns a truncated response: long lines are cut at whole sentences", () => {
    const first = "Decision: use the yaml package for checkpoints because it is already a dependency.";
    const rest = " It also keeps block scalars intact across round trips and handles comments".repeat(5);
    const decision = extractDecisionFromResponse(first + rest);
    expect(decision).toBe("Use the yaml package for checkpoints because it is already a dependency.");
    expect(decision!.length).toBeLessThanOrEqual(MAX_DECISION_LENGTH);
  });

  it("returns null when even the first sentence is too long to store whole", () => {
    const text = `Decision: use ${"very ".repeat(60)}long names.`;
    expect(extractDecisionFromResponse(text)).toBeNull();
  });

  it("takes the first match within the same tier", () => {
    const text = "Chose vitest for tests.\nDecision: use pnpm for installs.";
    expect(extractDecisionFromResponse(text)).toBe("Chose vitest for tests.");
  });

  it("returns null for empty text", () => {
    expect(extractDecisionFromResponse("")).toBeNull();
  });
});

describe("extractDecisionFromResponse on prose lines", () => {
  it("finds a marker that starts a later sentence of a line", () => {
    expect(extractDecisionFromResponse("Understood. Going with an internal fix only; the exported API stays as it is.")).toBe(
      "Going with an internal fix only; the exported API stays as it is.",
    );
  });

  it("does not count procedural first steps as decisions", () => {
    expect(extractDecisionFromResponse("I'll start by reading the parser tests.")).toBeNull();
    expect(extractDecisionFromResponse("Let me begin by checking the lockfile.")).toBeNull();
  });
});
