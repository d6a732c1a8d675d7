import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { buildHandoff, carryOf } from "./build.js";
import type { HandoffInputs } from "./inputs.js";
import { parseHandoffJson, renderHandoffJson } from "./render-json.js";
import { richInputs } from "./test-support/fixtures.js";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const minimal = (overrides: Partial<HandoffInputs> = {}): HandoffInputs => ({
  generatedAt: "2026-03-01T00:00:00.000Z",
  task: { title: "Add a health endpoint" },
  hat: "planner",
  git: { branch: "hatloop/health", headCommit: "abc1234", modifiedFiles: [], createdFiles: [] },
  ...overrides,
});

describe("buildHandoff", () => {
  const handoff = buildHandoff(richInputs());

  it("carries the summary fields, with git facts exactly as given", () => {
    expect(handoff).toMatchObject({
      generated_at: "2026-03-01T12:00:00.000Z",
      task_title: "Fix the flaky parser test",
      current_hat: "builder",
      branch: "hatloop/fix-flaky-parser-test",
      head_commit: "3f2a9c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a9f",
      created_files: ["packages/parser/src/lexer/newlines.test.ts", "packages/parser/src/property/seed.test.ts"],
      deleted_files: ["packages/parser/NOTES.md"],
    });
    expect(handoff.modified_files).toEqual(richInputs().git.modifiedFiles);
    expect(handoff.diffstat).toMatchObject({ files_changed: 13, insertions: 214, deletions: 57 });
    expect(handoff.commits.map((c) => c.subject)).toEqual(["hatloop: checkpoint 1 (explore)", "parser: seed the property-test generator"]);
  });

  it("takes progress from the checklist: skipped counts as done, failed remains and blocks", () => {
    expect(handoff.completed_items).toHaveLength(4);
    expect(handoff.completed_items).toContain("Remove the outdated parser notes (skipped: already gone)");
    expect(handoff.remaining_items).toHaveLength(6);
    expect(handoff.remaining_items[0]).toBe("Fix the tokenizer's newline handling for CRLF and LF inputs");
    expect(handoff.blocking_issues).toEqual([
      "Fix the lint warnings the change introduces in the parser package (failed: eslint config missing in CI image)",
    ]);
  });

  it("falls back to the scratchpad plan without a checklist", () => {
    const h = buildHandoff(minimal({ scratchpad: richInputs().scratchpad }));
    expect(h.completed_items).toEqual(["Explore the parser and its tests", "Reproduce the flaky test"]);
    expect(h.remaining_items).toEqual(["Fix the tokenizer's newline handling", "Add regression tests", "Run quality gates"]);
  });

  it("merges key decisions from the running set, the responses and the scratchpad without duplicates", () => {
    expect(handoff.key_decisions).toEqual([
      "Run the parser tests with vitest in isolation mode",
      "Store the failing seed in the test name for reproduction",
      "Patch newline handling inside the lexer, not in the tokenizer facade",
      "Represent CRLF as a single newline token two characters wide",
      "Going with an internal fix only; the exported tokenizer API stays as it is.",
      "Keep the public tokenizer API unchanged",
      "Use a seeded random generator in the property tests",
    ]);
    // The person said "keep the public API unchanged" after the scratchpad was written: its duplicate moves last.
    expect(handoff.decisions.map((d) => d.id)).toEqual(["d1", "d2", "d3", "d4", "d7", "d6", "d5"]);
  });

  it("builds working state and thread from real user messages only", () => {
    expect(handoff.working).toEqual({
      topic: "keep the public API unchanged",
      status: "in_progress",
      interrupted: true,
      next_action: "patch the tokenizer to keep trailing newlines.",
      last_tool_call: { name: "edit_file", params_summary: "path=packages/parser/src/tokenizer.ts, old=a, new=b" },
      last_failure: null,
    });
    expect(handoff.thread.summary).toBe(
      "Fix the flaky parser test in packages/parser; it fails about one run in ten. ... keep the public API unchanged",
    );
    const gists = handoff.thread.key_exchanges.map((e) => e.gist).join("\n");
    for (const marker of [MARKERS.gauge, MARKERS.continuation, MARKERS.steer]) expect(gists).not.toContain(marker);
  });

  it("merges open items and drops those already listed as remaining", () => {
    expect(handoff.open_items).toEqual(["Ask whether CRLF input must round-trip exactly", "Check the Windows line endings path"]);
    const h = buildHandoff(
      minimal({ checklist: [{ description: "Write the health check", status: "pending" }], openItems: ["Write the health check"] }),
    );
    expect(h.open_items).toEqual([]);
  });

  it("keeps usage, failure context and a continuation prompt that names them", () => {
    expect(handoff.usage).toMatchObject({
      iteration: 7,
      cost_usd: 2.4375,
      context_window: 200_000,
      budgets: { max_iterations: 40, max_tokens: null },
    });
    expect(handoff.failure).toEqual({
      last_error: "vitest exited with code 1: tokenizer > keeps trailing newlines",
      failed_at: "2026-03-01T11:58:00.000Z",
      recovery_hint: "Re-run with seed 42 after patching newline handling",
    });
    expect(handoff.continuation_prompt).toBe(
      [
        "Continue working on: Fix the flaky parser test",
        "Current hat: builder",
        "Next step: patch the tokenizer to keep trailing newlines.",
        "The last attempt failed: vitest exited with code 1: tokenizer > keeps trailing newlines",
        "Recovery hint: Re-run with seed 42 after patching newline handling",
        "The previous iteration stopped during a call to edit_file; check its effect before repeating it.",
      ].join("\n"),
    );
  });

  it("has empty, not missing, sections for a minimal input", () => {
    const h = buildHandoff(minimal());
    expect(h).toMatchObject({
      completed_items: [],
      remaining_items: [],
      key_decisions: [],
      decisions: [],
      open_items: [],
      learnings: [],
      usage: null,
      failure: null,
      diffstat: null,
      commits: [],
    });
    expect(h.working.next_action).toBe("Check the task against its checklist and finish it");
    expect(h.continuation_prompt).toContain("Continue working on: Add a health endpoint");
  });

  it("redacts secrets that came from the conversation", () => {
    const h = buildHandoff(
      minimal({
        messages: [{ role: "user", content: "Use the token ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd to push" }],
        learnings: ["DB_PASSWORD=hunter2! works for staging"],
        failure: { lastError: "401 for Authorization: Bearer abc123def456ghi789jkl" },
      }),
    );
    const text = JSON.stringify(h);
    for (const secret of ["ghp_Zx8Kq2", "hunter2", "abc123def456"]) expect(text).not.toContain(secret);
  });

  it("is deterministic and does not mutate its inputs", () => {
    const inputs = deepFreeze(richInputs());
    expect(buildHandoff(inputs)).toEqual(buildHandoff(inputs));
    expect(inputs).toEqual(richInputs());
  });

  it("closes the working state when the task is complete: nothing left but review, no stale failure or blockers", () => {
    const inputs = { ...richInputs(), lastFailure: "FAIL tokenizer > keeps trailing newlines" };
    const open = buildHandoff(inputs);
    expect(open.working).toMatchObject({ status: "in_progress", last_failure: "FAIL tokenizer > keeps trailing newlines" });
    const done = buildHandoff({ ...inputs, completed: true });
    expect(done.working).toMatchObject({ status: "completed", interrupted: false, last_failure: null });
    expect(done.working.next_action).toBe(
      "Nothing left to do: the task is complete and its quality gates passed; review branch hatloop/fix-flaky-parser-test and merge it",
    );
    expect(done.blocking_issues).toEqual([]);
    expect(done.remaining_items).toEqual(open.remaining_items.map((item) => `${item} (left open at completion)`));
    expect(done.continuation_prompt).toBe(
      "The task is complete: Fix the flaky parser test\nNothing left to do: the task is complete and its quality gates passed; review branch hatloop/fix-flaky-parser-test and merge it",
    );
    expect(carryOf(done).lastFailure).toBeNull();
    expect(parseHandoffJson(renderHandoffJson(done))).toEqual(done);
  });
});
