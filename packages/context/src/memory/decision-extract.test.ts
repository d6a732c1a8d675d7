import { describe, expect, it } from "vitest";
import { extractDecisionFromResponse, extractDecisionsFromResponse, MAX_DECISION_LENGTH } from "./decision-extract.js";

// The tests docs/design/checkpoint-quality.md asks for: extracts tier 1 (explicit marker) over tier 3
// (bold), returns null for conversational filler, returns null for code-fence-only response, action
// verb bullet extraction (tier 4).
describe("extractDecisionFromResponse", () => {
  it("extracts tier 1 (explicit marker) over tier 3 (bold)", () => {
    const text = ["**Merge strategy overview**", "Some context about the merge.", "Decision: use a lowercase set-diff for the merge."].join(
      "\n",
    );
    expect(extractDecisionFromResponse(text)).toBe("Decision: use a lowercase set-diff for the merge.");
  });

  it("keeps the label of a tier 1 line as part of the decision", () => {
    expect(extractDecisionFromResponse("Plan: move the cache behind the store port.")).toBe("Plan: move the cache behind the store port.");
    expect(extractDecisionFromResponse("Approach: split the parser into lexer and tokenizer.")).toBe(
      "Approach: split the parser into lexer and tokenizer.",
    );
  });

  it("prefers tier 2 intent over tier 3 and tier 4", () => {
    const text = ["- **Cache**: keep it", "- Remove the old cache layer", "I'll switch the store to PGlite for embedded runs."].join("\n");
    expect(extractDecisionFromResponse(text)).toBe("I'll switch the store to PGlite for embedded runs.");
  });

  it("uses a bold-prefixed bullet (tier 3) when there is no marker or intent", () => {
    const text = [
      "Here is what changed.",
      "- **Atomic writes** instead of in-place updates keep checkpoints consistent",
      "- fixed the typo",
    ].join("\n");
    expect(extractDecisionFromResponse(text)).toBe("Atomic writes instead of in-place updates keep checkpoints consistent");
  });

  it("ranks a line by the tier patterns as written: a bullet or bold label is not tier 1", () => {
    expect(extractDecisionFromResponse("- Decision: add a retry for 503s\nI'll switch the store to PGlite.")).toBe(
      "I'll switch the store to PGlite.",
    );
    expect(extractDecisionFromResponse("**Decision:** cache in memory\nWe'll remove the disk cache.")).toBe("We'll remove the disk cache.");
  });

  it("matches tier 1 prefixes without a word boundary, as the tier pattern does", () => {
    const text = "I'll update the docs later.\nChosen stack: pnpm workspaces, vitest and tsup.";
    expect(extractDecisionFromResponse(text)).toBe("Chosen stack: pnpm workspaces, vitest and tsup.");
  });

  it("returns null for conversational filler", () => {
    expect(extractDecisionFromResponse("You're right, I overcomplicated it.")).toBeNull();
    expect(extractDecisionFromResponse("Ohoho. Claude Code Remote Control")).toBeNull();
    expect(extractDecisionFromResponse("Hmm, let me think about that for a second.")).toBeNull();
  });

  it("skips a filler line that matches no tier and takes the decision further down", () => {
    const text = "You're right, I overcomplicated it.\n\nThe fix is to replace the fingerprint dedup with semantic dedup.";
    expect(extractDecisionFromResponse(text)).toBe("The fix is to replace the fingerprint dedup with semantic dedup.");
  });

  it("falls back to a lower tier when the highest-tier match fails the gate", () => {
    expect(extractDecisionFromResponse("I'll be right back with more.\n- Keep a retry around the flaky call")).toBe(
      "Keep a retry around the flaky call",
    );
    expect(extractDecisionFromResponse("Plan:\n1. Keep a retry around the flaky call")).toBe("Keep a retry around the flaky call");
  });

  it("keeps narration, status and progress out (issue 24)", () => {
    for (const line of [
      "I'll create them in parallel.",
      "I'll help you get CuPy working, add CPU comparisons, and create a streamlined benchmark.",
      "**GPU Support**: ✅ Compiled and available",
      "**Step 347 / 5000 (7%)**",
      "- **Implementation**: Added vsla_gpu_conv_fft() benchmarking to gpu_head_to_head.c",
      "**GPU Vector Addition**: 1.14× to 1.40× faster than cuBLAS",
      "**Missing**: vsla_gpu_conv_fft() - GPU convolution",
      "Good — the job is running with the fixed notebook, and the watcher will say when it ends.",
      "Rather than wait for it, let me launch the full run now while the smaller test goes on.",
      "If you don't want it, I'll revert it to an empty list and keep the name chips.",
      "Key findings: only BORDER_WIDTH becomes unused in app.py.",
      "lib/wallet.tsx: signing now deserializes the transaction before it is sent.",
      "- Add the CuPy benchmark to the suite",
    ])
      expect(extractDecisionFromResponse(line), line).toBeNull();
  });

  it("takes several choices from one response, and choices stated outright anywhere", () => {
    const text = [
      "Looked at both backends.",
      "We won't use cuFFT here because the convolution must follow the VSLA semantics.",
      "- **Kernel**: switch to a radix-2 Cooley-Tukey FFT written in plain CUDA",
      "I'll keep the CPU path as the reference implementation so results can be compared.",
    ].join("\n");
    expect(extractDecisionsFromResponse(text)).toEqual([
      "I'll keep the CPU path as the reference implementation so results can be compared.",
      "Kernel: switch to a radix-2 Cooley-Tukey FFT written in plain CUDA",
      "We won't use cuFFT here because the convolution must follow the VSLA semantics.",
    ]);
  });

  it("returns null for code-fence-only response", () => {
    const text = "```ts\n// Decision: use a map\nconst cache = new Map();\n- add entries\n```";
    expect(extractDecisionFromResponse(text)).toBeNull();
  });

  it("action verb bullet extraction (tier 4): a bullet that chooses, not a step of the work (issue 24)", () => {
    const text = [
      "Summary of the session:",
      "- the tests in the parser module were all eventually updated",
      "- Keep a retry around the flaky network call",
    ].join("\n");
    expect(extractDecisionFromResponse(text)).toBe("Keep a retry around the flaky network call");
    expect(extractDecisionFromResponse("Done.\n2. Persist the cursor after each batch, so that a restart resumes")).toBe(
      "Persist the cursor after each batch, so that a restart resumes",
    );
    expect(extractDecisionFromResponse("- Add a retry around the flaky network call")).toBeNull();
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

  it("accepts an intent line whose only structure is a colon after a keyword", () => {
    expect(extractDecisionFromResponse("The plan is simple: a mutex around the cache.")).toBe(
      "The plan is simple: a mutex around the cache.",
    );
  });

  it("rejects code lines outside fences", () => {
    expect(extractDecisionFromResponse("- const x = foo(bar) => { return baz[0]; }")).toBeNull();
  });

  it("keeps whole sentences when they fit in the length limit", () => {
    const first = "Decision: use the yaml package for checkpoints because it is already a dependency.";
    const rest = " It also keeps block scalars intact across round trips and handles comments".repeat(5);
    const decision = extractDecisionFromResponse(first + rest);
    expect(decision).toBe("Decision: use the yaml package for checkpoints because it is already a dependency.");
  });

  it("stores no decision cut short: a first sentence over the limit is left out", () => {
    expect(extractDecisionFromResponse(`Decision: use ${"very ".repeat(70)}long names.`)).toBeNull();
    const fits = `Decision: use ${"very ".repeat(50)}long names.`;
    expect(fits.length).toBeLessThanOrEqual(MAX_DECISION_LENGTH);
    expect(extractDecisionFromResponse(fits)).toBe(fits);
  });

  it("takes the first match within the same tier", () => {
    const text = "Chose vitest for tests.\nDecision: use pnpm for installs.";
    expect(extractDecisionFromResponse(text)).toBe("Chose vitest for tests.");
  });

  it("returns null for empty text", () => {
    expect(extractDecisionFromResponse("")).toBeNull();
  });
});

// hatloop's extensions: a marker that starts a later sentence of a prose line, and a setting change.
// They are tried only when no line matches one of the four tiers.
describe("extractDecisionFromResponse beyond the four tiers", () => {
  it("finds a marker that starts a later sentence of a line", () => {
    expect(extractDecisionFromResponse("Understood. Going with an internal fix only; the exported API stays as it is.")).toBe(
      "Going with an internal fix only; the exported API stays as it is.",
    );
  });

  it("never lets an extension displace a line that matches a seed tier", () => {
    expect(extractDecisionFromResponse("Understood. Going with an internal fix.\n- **Cache** stays in memory")).toBe(
      "Cache stays in memory",
    );
    expect(extractDecisionFromResponse("Lowering it to RETRY_MS=500: the test timed out.\n- Keep a retry around the flaky call")).toBe(
      "Keep a retry around the flaky call",
    );
  });

  it("does not count procedural first steps as decisions", () => {
    expect(extractDecisionFromResponse("I'll start by reading the parser tests.")).toBeNull();
    expect(extractDecisionFromResponse("Let me begin by checking the lockfile.")).toBeNull();
  });
});
