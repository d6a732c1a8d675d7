import { describe, expect, it } from "vitest";
import { isScalar, parseDocument, visit } from "yaml";
import { buildHandoff } from "./build.js";
import { parseHandoffJson, renderHandoffJson } from "./render-json.js";
import { renderHandoffMarkdown } from "./render-markdown.js";
import { parseHandoffYaml, renderHandoffYaml } from "./render-yaml.js";
import { richInputs } from "./test-support/fixtures.js";
import type { Handoff } from "./types.js";
import { HandoffFormatError } from "./validate.js";

// Free text that breaks naive YAML: colons, quotes, newlines, comments, leading dashes, indentation,
// document markers, scalars that look like other types, control characters and trailing newlines.
const NASTY = [
  "key: value: more",
  `"double" and 'single' quotes`,
  "line one\nline two\n",
  "# looks like a comment",
  "- looks like a list item",
  "  leading spaces",
  "trailing spaces   ",
  "",
  "---",
  "...",
  "null",
  "0123",
  "true",
  "tab\there",
  "bell\u0007char",
  "x\n\n\ny",
  "\n\nstarts with blank lines",
  "ends with blank lines\n\n",
  "unicode ✓ ünïcødé 日本語",
  "| > & * ! % @ `",
];

function nastyHandoff(): Handoff {
  const h = buildHandoff(richInputs());
  return {
    ...h,
    task_title: NASTY.join(" / "),
    current_hat: "- builder: #1",
    branch: "feature/#12: fix",
    head_commit: "0123456",
    completed_items: NASTY,
    open_items: NASTY,
    learnings: [...NASTY].reverse(),
    blocking_issues: NASTY.slice(0, 5),
    modified_files: ["- odd name.ts", "#hash.ts", "a: b.ts", "007"],
    continuation_prompt: NASTY.join("\n"),
    working: {
      ...h.working,
      topic: "topic: with # and 'quotes'",
      next_action: "- dash\n- list",
      last_tool_call: { name: "run: cmd", params_summary: 'command="a: b" # c' },
    },
    decisions: NASTY.map((what, i) => ({ id: `d${i + 1}`, what, when: i % 2 ? null : "2026-03-01T00:00:00Z" })),
    thread: { summary: NASTY.join("\n"), key_exchanges: NASTY.map((gist, i) => ({ role: i % 2 ? "agent" : "user", gist })) },
    commits: [{ sha: "0000001", subject: "fix: a # b" }],
    failure: { last_error: "Error: x\n    at y (z.ts:1:2)\n", failed_at: null, recovery_hint: null },
    open_question: { question: NASTY.join(" "), asked_at: "2026-03-01T00:00:00Z", iteration: 4, answer: null },
  };
}

describe("renderHandoffJson / parseHandoffJson", () => {
  it("round-trips to an equal object, nasty text included", () => {
    for (const h of [buildHandoff(richInputs()), nastyHandoff()]) expect(parseHandoffJson(renderHandoffJson(h))).toEqual(h);
  });

  it("drops keys that are not part of the Handoff", () => {
    const extra = { ...buildHandoff(richInputs()), surprise: 1 } as Handoff;
    expect(renderHandoffJson(extra)).not.toContain("surprise");
  });

  it("rejects bad JSON and wrong shapes with the path", () => {
    expect(() => parseHandoffJson("{")).toThrow(HandoffFormatError);
    const wrong = JSON.parse(renderHandoffJson(buildHandoff(richInputs())));
    wrong.working.status = "sleeping";
    expect(() => parseHandoffJson(JSON.stringify(wrong))).toThrow("$.working.status");
    delete wrong.working;
    expect(() => parseHandoffJson(JSON.stringify(wrong))).toThrow("$.working");
    expect(() => parseHandoffJson(JSON.stringify({ ...wrong, schema: "other" }))).toThrow("$.schema");
  });
});

describe("the open question", () => {
  it("is absent (null) in a built handoff and in a stored one without it, and shown in Markdown when set", () => {
    const built = buildHandoff(richInputs());
    expect(built.open_question).toBeNull();
    const { open_question: _, ...older } = built;
    expect(parseHandoffJson(JSON.stringify(older)).open_question).toBeNull();
    const asked = {
      ...built,
      open_question: { question: "MIT or Apache-2.0?", asked_at: "2026-03-01T00:00:00Z", iteration: 4, answer: null },
    };
    expect(renderHandoffMarkdown(asked)).toContain("## Waiting for an answer\n\nMIT or Apache-2.0?\n\n_not answered yet (hatloop answer)_");
    expect(renderHandoffMarkdown({ ...asked, open_question: { ...asked.open_question, answer: "MIT" } })).toContain("Answered: MIT");
    expect(renderHandoffMarkdown(built)).not.toContain("Waiting for an answer");
  });
});

describe("renderHandoffYaml / parseHandoffYaml", () => {
  it("round-trips to an equal object, nasty text included", () => {
    for (const h of [buildHandoff(richInputs()), nastyHandoff()]) expect(parseHandoffYaml(renderHandoffYaml(h))).toEqual(h);
  });

  it("follows the checkpoint layout with block scalars for free text and quoted strings elsewhere", () => {
    const yaml = renderHandoffYaml(buildHandoff(richInputs()));
    for (const group of [
      "meta:",
      "git:",
      "progress:",
      "working:",
      "decisions:",
      "thread:",
      "open_items:",
      "learnings:",
      "usage:",
      "failure:",
    ]) {
      expect(yaml).toMatch(new RegExp(`^${group}`, "m"));
    }
    expect(yaml).toMatch(/^ {2}task_title: \|-\n {4}Fix the flaky parser test$/m);
    expect(yaml).toContain('    name: "edit_file"');
    expect(yaml).toContain('  head_commit: "3f2a9c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a9f"');
    expect(yaml).toContain('    - "packages/parser/src/tokenizer.ts"');
    expect(yaml).toMatch(/^ {2}- \|-\n {4}Ask whether CRLF input must round-trip exactly$/m);
  });

  it("keeps user text out of keys", () => {
    const keys = new Set<string>();
    visit(parseDocument(renderHandoffYaml(nastyHandoff())), {
      Pair(_, pair) {
        if (isScalar(pair.key)) keys.add(String(pair.key.value));
      },
    });
    expect([...keys].every((k) => /^[a-z_]+$/.test(k))).toBe(true);
    expect(keys.has("task_title")).toBe(true);
  });

  it("rejects bad YAML and wrong shapes", () => {
    expect(() => parseHandoffYaml("meta: [unclosed")).toThrow(HandoffFormatError);
    expect(() => parseHandoffYaml("- a list")).toThrow(HandoffFormatError);
    const yaml = renderHandoffYaml(buildHandoff(richInputs())).replace('status: "in_progress"', "status: 7");
    expect(() => parseHandoffYaml(yaml)).toThrow("$.working.status");
    expect(() => parseHandoffYaml("schema: x\nmeta: {}\ngit: {}\nprogress: {}")).toThrow("$.schema");
  });
});

describe("renderHandoffMarkdown", () => {
  const h = buildHandoff(richInputs());
  const md = renderHandoffMarkdown(h);

  it("contains every field", () => {
    const values = [
      h.task_title,
      h.generated_at,
      h.current_hat,
      h.branch,
      h.head_commit,
      ...h.completed_items,
      ...h.remaining_items,
      ...h.blocking_issues,
      ...h.modified_files,
      ...h.created_files,
      ...h.deleted_files,
      ...h.key_decisions,
      h.working.topic,
      h.working.status,
      h.working.next_action,
      h.working.last_tool_call!.name,
      h.working.last_tool_call!.params_summary,
      h.thread.summary,
      ...h.thread.key_exchanges.map((e) => e.gist),
      ...h.open_items,
      ...h.decisions.map((d) => `${d.id}`),
      ...h.decisions.map((d) => d.what),
      ...h.learnings,
      ...h.commits.map((c) => c.subject),
      h.failure!.last_error,
      h.failure!.recovery_hint!,
      h.failure!.failed_at!,
      ...h.continuation_prompt.split("\n"),
      "13 files changed, +214 -57",
      "Iteration: 7",
      "$2.4375",
      "144000/200000",
      "iterations 40",
    ];
    for (const value of values) expect(md).toContain(value);
    for (const heading of [
      "Progress (4/10)",
      "Working state",
      "Key decisions",
      "Decisions",
      "Open items",
      "Learnings",
      "Thread",
      "Files",
      "Diffstat",
      "Commits",
      "Usage",
      "Failure",
      "Continuation prompt",
    ]) {
      expect(md).toContain(`## ${heading}`);
    }
  });

  it("says none for empty sections", () => {
    const empty = { ...h, open_items: [], failure: null, usage: null, diffstat: null, commits: [] };
    expect(renderHandoffMarkdown(empty)).toMatch(/## Open items\n\n_none_/);
    expect(renderHandoffMarkdown(empty)).toMatch(/## Failure\n\n_none_/);
  });
});

describe("rendering is deterministic", () => {
  it("gives identical output for identical handoffs", () => {
    const a = buildHandoff(richInputs());
    const b = buildHandoff(richInputs());
    expect(renderHandoffYaml(a)).toBe(renderHandoffYaml(b));
    expect(renderHandoffJson(a)).toBe(renderHandoffJson(b));
    expect(renderHandoffMarkdown(a)).toBe(renderHandoffMarkdown(b));
  });
});
