import { describe, expect, it } from "vitest";
import type { Message } from "../messages.js";
import { summarizeMechanically } from "./summarize-mechanical.js";
import { mixedTranscript } from "./test-support/mixed-transcript.js";
import { assistant, result, syntheticTranscript, use, user } from "./test-support/transcripts.js";

const session: Message[] = [
  user("Add retries to the client."),
  assistant(
    "I decided to use exponential backoff rather than a fixed delay. Looking around first.",
    use("a", "read_file", { path: "src/client.ts" }),
    use("b", "search", { pattern: "fetch\\(" }),
  ),
  user(result("a", "export function get() {}"), result("b", "src/client.ts:3")),
  assistant(
    use("c", "write_file", { path: "src/retry.ts", content: "export const retry = 1;" }),
    use("d", "edit_file", { path: "src/client.ts", old_string: "a", new_string: "b" }),
    use("e", "edit_file", { path: "src/missing.ts", old_string: "a", new_string: "b" }),
    use("f", "apply_patch", {
      patch: "*** Begin Patch\n*** Update File: src/http.ts\n@@\n-x\n+y\n*** Add File: test/retry.test.ts\n+it()\n*** End Patch",
    }),
  ),
  user(result("c", "written"), result("d", "edited"), result("e", "ENOENT: no such file src/missing.ts", true), result("f", "patched")),
  assistant(
    use("g", "run_command", { command: "pnpm test" }),
    use("h", "str_replace_based_edit_tool", { command: "view", path: "src/view-only.ts" }),
  ),
  user(result("g", "exit code: 1\n\nFAIL test/retry.test.ts > retries three times", true), result("h", "...")),
  assistant(use("i", "edit_file", { path: "src/retry.ts", old_string: "1", new_string: "3" }), use("j", "task_complete", {})),
  user(result("i", "edited"), result("j", "QUALITY_BLOCKED: test failed (1 new failure)")),
  assistant(use("k", "run_command", { command: "pnpm test" })),
  user(result("k", "exit code: 0\nQUALITY_PASSED")),
];

describe("summarizeMechanically", () => {
  const summary = summarizeMechanically(session);

  it("lists every modified path exactly once, in order, from tool inputs (not failed writes or reads)", () => {
    expect(summary.filesChanged).toEqual(["src/retry.ts", "src/client.ts", "src/http.ts", "test/retry.test.ts"]);
    for (const path of summary.filesChanged) expect(summary.text).toContain(`- ${path}`);
    const filesSection = summary.text.split("\n\n").find((part) => part.startsWith("Files changed:"));
    expect(filesSection).toBe("Files changed:\n- src/retry.ts\n- src/client.ts\n- src/http.ts\n- test/retry.test.ts");
  });

  it("records commands with exit status, quality gates, errors and decisions", () => {
    expect(summary.commands).toEqual([
      { command: "pnpm test", exitCode: 1, failed: true },
      { command: "pnpm test", exitCode: 0, failed: false },
    ]);
    expect(summary.gates).toEqual(["QUALITY_BLOCKED: test failed (1 new failure)", "QUALITY_PASSED"]);
    expect(summary.errors).toEqual([
      "edit_file path=src/missing.ts: ENOENT: no such file src/missing.ts",
      "run_command command=pnpm test: FAIL test/retry.test.ts > retries three times",
    ]);
    expect(summary.decisions).toEqual(["I decided to use exponential backoff rather than a fixed delay."]);
    expect(summary.calls).toContainEqual({ call: "run_command command=pnpm test", count: 2 });
    expect(summary.calls).toContainEqual({ call: "search pattern=fetch\\(", count: 1 });
    expect(summary.text).toContain("`pnpm test` ×2 (1 failed) → last exit 0");
    const once = summarizeMechanically(session.slice(0, 7));
    expect(once.commands).toHaveLength(1);
    expect(once.text).toContain("`pnpm test` → exit 1");
  });

  it("takes the scratchpad's Key Decisions, not its other sections, as decisions", () => {
    const pad =
      "Done.\nSCRATCHPAD:\n## Current Understanding\n- Make the import stream rows instead of loading the file.\n## Key Decisions\n- Use a quarantine table, because support downloads rejected rows.\nEVENT:plan.complete";
    const s = summarizeMechanically([user("t"), assistant(pad)], { extractDecision: (t) => (/\b(make|use)\b/i.test(t) ? t : null) });
    expect(s.decisions).toEqual(["Use a quarantine table, because support downloads rejected rows."]);
  });

  it("uses the given decision extractor", () => {
    const custom = summarizeMechanically(session, { extractDecision: (s) => (s.startsWith("Looking") ? `DECISION ${s}` : null) });
    expect(custom.decisions).toEqual(["DECISION Looking around first."]);
  });

  it("is bounded, but never cuts the artifact trail", () => {
    const big = syntheticTranscript({ seed: 4, turns: 120 });
    const full = summarizeMechanically(big, { maxChars: 100_000 });
    const bounded = summarizeMechanically(big, { maxChars: 1_500 });
    const filesPart = `Files changed:\n${full.filesChanged.map((f) => `- ${f}`).join("\n")}`;
    expect(bounded.text.length).toBeLessThanOrEqual(1_500 + filesPart.length);
    expect(bounded.text).toContain(filesPart);
    expect(bounded.text).toMatch(/… \d+ more/);
    expect(full.text.length).toBeGreaterThan(bounded.text.length);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(summarizeMechanically(mixedTranscript()))).toBe(JSON.stringify(summarizeMechanically(mixedTranscript())));
    expect(summarizeMechanically(mixedTranscript()).filesChanged).toEqual(["src/login.ts"]);
  });
});
