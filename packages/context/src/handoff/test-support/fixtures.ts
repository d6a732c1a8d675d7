import { MARKERS } from "../../markers.js";
import type { Message } from "../../messages.js";
import type { HandoffInputs } from "../inputs.js";

// Handoff inputs for tests: a realistic mid-task session, and a huge one for the resume-packet cap.

export const SCRATCHPAD = `# Task Scratchpad

## Current Understanding
- TypeScript pnpm monorepo; the parser lives in packages/parser/src
- Tests use vitest, next to the source

## Current Plan
1. [x] Explore the parser and its tests
2. [x] Reproduce the flaky test
3. [ ] Fix the tokenizer's newline handling
4. [ ] Add regression tests
5. [ ] Run quality gates

## Key Decisions
- Keep the public tokenizer API unchanged
- Use a seeded random generator in the property tests

## Blockers
- None currently

## Last Action
Reproduced the failure with seed 42. Next: patch the tokenizer to keep trailing newlines.

## Compacted History
### Summary
1. **User Intent** - fix the flaky parser test
`;

const toolCall = (id: string, name: string, input: unknown): Message => ({
  role: "assistant",
  content: [{ type: "tool_use", id, name, input }],
});
const toolResult = (id: string, content: string): Message => ({
  role: "user",
  content: [{ type: "tool_result", tool_use_id: id, content }],
});

const MESSAGES: Message[] = [
  { role: "user", content: "Fix the flaky parser test in packages/parser; it fails about one run in ten." },
  { role: "assistant", content: "I'll start by reading the parser tests." },
  toolCall("t1", "read_file", { path: "packages/parser/src/tokenizer.test.ts" }),
  toolResult("t1", "describe('tokenizer', () => { ... })"),
  { role: "user", content: `${MARKERS.gauge}72% | 144k/200k tokens]` },
  {
    role: "assistant",
    content: `Decision: use a seeded random generator in the property tests so failures reproduce.\n\n${"The property tests draw random inputs. ".repeat(14)}`,
  },
  { role: "user", content: `${MARKERS.steer} keep the public API unchanged` },
  { role: "assistant", content: "Understood. Going with an internal fix only; the exported tokenizer API stays as it is." },
  toolCall("t2", "run_command", { command: "pnpm vitest run packages/parser", timeout: 120 }),
  toolResult("t2", " FAIL  packages/parser/src/tokenizer.test.ts > tokenizer > keeps trailing newlines"),
  { role: "user", content: `${MARKERS.continuation} Iteration 6: continue with the next checklist item.` },
  {
    role: "assistant",
    content:
      "The failure is in newline handling.\nTODO: check the Windows line endings path\nNext: patch the tokenizer to keep trailing newlines.",
  },
  toolCall("t3", "edit_file", { path: "packages/parser/src/tokenizer.ts", old: "a", new: "b" }),
];

export function richInputs(): HandoffInputs {
  return {
    generatedAt: "2026-03-01T12:00:00.000Z",
    task: { title: "Fix the flaky parser test" },
    hat: "builder",
    checklist: [
      { id: "explore", description: "Explore the parser and its tests", status: "done" },
      { id: "repro", description: "Reproduce the flaky test", status: "done" },
      { id: "seed", description: "Seed the property-test generator", status: "done" },
      { id: "docs-old", description: "Remove the outdated parser notes", status: "skipped", reason: "already gone" },
      { id: "fix", description: "Fix the tokenizer's newline handling for CRLF and LF inputs", status: "in_progress" },
      { id: "tests", description: "Add regression tests for trailing newlines, CRLF input and empty files", status: "pending" },
      { id: "bench", description: "Check the tokenizer benchmark does not regress by more than five percent", status: "pending" },
      {
        id: "lint",
        description: "Fix the lint warnings the change introduces in the parser package",
        status: "failed",
        reason: "eslint config missing in CI image",
      },
      { id: "gates", description: "Run the quality gates: tests, lint, typecheck and build for the whole workspace", status: "pending" },
      { id: "changelog", description: "Write a changelog entry describing the newline fix for users of the parser", status: "pending" },
    ],
    scratchpad: SCRATCHPAD,
    git: {
      branch: "hatloop/fix-flaky-parser-test",
      headCommit: "3f2a9c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a9f",
      modifiedFiles: [
        "packages/parser/src/tokenizer.ts",
        "packages/parser/src/tokenizer.test.ts",
        "packages/parser/src/lexer/newlines.ts",
        "packages/parser/src/lexer/positions.ts",
        "packages/parser/src/index.ts",
        "packages/parser/package.json",
        "packages/parser/README.md",
        "packages/parser/src/property/generators.ts",
        "packages/parser/src/property/seed.ts",
        "pnpm-lock.yaml",
      ],
      createdFiles: ["packages/parser/src/lexer/newlines.test.ts", "packages/parser/src/property/seed.test.ts"],
      deletedFiles: ["packages/parser/NOTES.md"],
      diffstat: {
        filesChanged: 13,
        insertions: 214,
        deletions: 57,
        files: [
          { path: "packages/parser/src/tokenizer.ts", insertions: 40, deletions: 12 },
          { path: "packages/parser/src/lexer/newlines.ts", insertions: 88, deletions: 5 },
        ],
      },
      commits: [
        { sha: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", subject: "hatloop: checkpoint 1 (explore)" },
        { sha: "b2c3d4e5f60718293a4b5c6d7e8f901234567890", subject: "parser: seed the property-test generator" },
      ],
    },
    messages: MESSAGES,
    decisions: [
      { id: "d1", what: "Run the parser tests with vitest in isolation mode", when: "2026-03-01T10:00:00.000Z" },
      { id: "d2", what: "Store the failing seed in the test name for reproduction", when: "2026-03-01T10:30:00.000Z" },
      { id: "d3", what: "Patch newline handling inside the lexer, not in the tokenizer facade", when: "2026-03-01T11:00:00.000Z" },
      { id: "d4", what: "Represent CRLF as a single newline token two characters wide", when: "2026-03-01T11:10:00.000Z" },
    ],
    openItems: ["Ask whether CRLF input must round-trip exactly", "Check the Windows line endings path"],
    learnings: ["The tokenizer drops trailing newlines when the input ends in CRLF", "Property tests must log their seed"],
    usage: {
      iteration: 7,
      inputTokens: 412_000,
      outputTokens: 31_500,
      cacheReadTokens: 280_000,
      cacheWriteTokens: 52_000,
      costUsd: 2.4375,
      runtimeMs: 1_260_000,
      contextTokens: 144_000,
      contextWindow: 200_000,
      budgets: { maxIterations: 40, maxTokens: null, maxCostUsd: 10, maxRuntimeMs: null },
    },
    failure: {
      lastError: "vitest exited with code 1: tokenizer > keeps trailing newlines",
      failedAt: "2026-03-01T11:58:00.000Z",
      recoveryHint: "Re-run with seed 42 after patching newline handling",
    },
  };
}

/** Hundreds of files, items and decisions, and very long texts. */
export function hugeInputs(): HandoffInputs {
  const rich = richInputs();
  const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
  return {
    ...rich,
    task: { title: `Rewrite the parser ${"and everything around it ".repeat(40)}` },
    checklist: many(300, (i) => ({
      id: `item-${i}`,
      description: `Step ${i}: migrate module ${i} of the legacy parser to the new tokenizer ${"with care ".repeat(20)}`,
      status: i % 3 === 0 ? ("done" as const) : ("pending" as const),
    })),
    scratchpad: `${SCRATCHPAD}\n## Blockers\n${many(40, (i) => `- Blocker ${i}: waiting on review of module ${i} ${"x".repeat(300)}`).join("\n")}`,
    git: {
      ...rich.git,
      modifiedFiles: many(2000, (i) => `packages/legacy/src/module-${i}/implementation-${i}.ts`),
      createdFiles: many(500, (i) => `packages/parser/src/new-${i}.ts`),
    },
    decisions: many(45, (i) => ({
      id: `d${i + 1}`,
      what: `Use adapter ${i} for legacy module ${i} ${"because of constraints ".repeat(12)}`,
      when: null,
    })),
    openItems: many(60, (i) => `Open question number ${i} about module ${i}`),
    failure: { lastError: `Error: boom\n${"    at frame (file.ts:1:1)\n".repeat(500)}`, failedAt: null, recoveryHint: "y".repeat(5000) },
  };
}
