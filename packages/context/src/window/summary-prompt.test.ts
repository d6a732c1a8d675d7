import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { renderCompactedHistory } from "./compacted-history.js";
import { missingSections, parseStructuredSummary } from "./parse-summary.js";
import { buildSummaryPrompt } from "./summary-prompt.js";
import { SUMMARY_SECTIONS } from "./summary-sections.js";
import { assistant, result, use, user } from "./test-support/transcripts.js";

const TITLES = ["User Intent", "Technical Context", "Files & Code", "Errors & Fixes", "Key Decisions", "Pending Tasks", "Current State"];

describe("buildSummaryPrompt", () => {
  it("asks for the seven sections and an <analysis> pass", () => {
    const prompt = buildSummaryPrompt([user("Fix the login test."), assistant("On it.")]);
    expect(SUMMARY_SECTIONS.map((s) => s.title)).toEqual(TITLES);
    TITLES.forEach((t, i) => expect(prompt).toContain(`${i + 1}. **${t}**`));
    expect(prompt).toContain("<analysis>");
    expect(prompt).toContain("[user]: Fix the login test.");
    expect(prompt).toContain("[assistant]: On it.");
  });

  it("truncates each message at 2,000 chars and tool results shorter", () => {
    const prompt = buildSummaryPrompt([
      user("u".repeat(5_000)),
      assistant(use("t1", "read_file", { path: "a.ts" })),
      user(result("t1", "r".repeat(5_000))),
    ]);
    expect(prompt).toContain(`[user]: ${"u".repeat(2_000)}... [truncated]`);
    expect(prompt).not.toContain("u".repeat(2_001));
    expect(prompt).toContain(`[tool_result] ${"r".repeat(500)}... [truncated]`);
    expect(prompt).not.toContain("r".repeat(501));
    expect(prompt).toContain('[tool_use read_file] {"path":"a.ts"}');
  });

  it("bounds the whole history, keeping the task and the newest messages", () => {
    const many = [
      user("THE TASK"),
      ...Array.from({ length: 400 }, (_, i) =>
        i % 2 === 0 ? assistant(`reply ${i} ${"a".repeat(300)}`) : user(`note ${i} ${"b".repeat(300)}`),
      ),
    ];
    const prompt = buildSummaryPrompt(many, { maxHistoryChars: 20_000 });
    expect(prompt.length).toBeLessThan(22_000);
    expect(prompt).toContain("[user]: THE TASK");
    expect(prompt).toContain("note 399");
    expect(prompt).toMatch(/\[\.\.\. \d+ earlier messages omitted \.\.\.\]/);
    expect(prompt).not.toContain("reply 0 ");
  });

  it("includes an earlier summary and recorded facts when given", () => {
    const prompt = buildSummaryPrompt([user("x")], { previousSummary: "EARLIER", facts: "- src/a.ts" });
    expect(prompt).toContain("EARLIER");
    expect(prompt).toContain("- src/a.ts");
  });
});

const good = `<analysis>
The user wanted X. Let me think about Files & Code...
</analysis>

## 1. User Intent
Fix the flaky login test.
## 2. Technical Context
Vitest with fake timers.
## 3. Files & Code
- src/login.ts
## 4. Errors & Fixes
None.
## 5. Key Decisions
Use a fake clock.
## 6. Pending Tasks
- Run lint
## 7. Current State
Tests pass.`;

describe("parseStructuredSummary", () => {
  it("strips the analysis and returns the summary when all sections are present", () => {
    const parsed = parseStructuredSummary(good);
    expect(parsed).not.toBeNull();
    expect(parsed!.startsWith("## 1. User Intent")).toBe(true);
    expect(parsed).not.toContain("analysis");
    expect(parsed).not.toContain("Let me think");
  });

  it("accepts bold headings and a <summary> wrapper", () => {
    const bold = `<analysis>x</analysis><summary>\n${TITLES.map((t) => `**${t}**\n- item`).join("\n")}\n</summary>`;
    expect(parseStructuredSummary(bold)).toBe(TITLES.map((t) => `**${t}**\n- item`).join("\n"));
  });

  it("rejects missing sections, prose mentions, an unclosed analysis and empty answers", () => {
    expect(parseStructuredSummary(good.replace("## 6. Pending Tasks", "Pending work"))).toBeNull();
    expect(missingSections(good.replace("## 6. Pending Tasks", "Pending work"))).toEqual(["Pending Tasks"]);
    expect(parseStructuredSummary(`${TITLES.map((t) => `The ${t} was fine.`).join("\n")}`)).toBeNull();
    expect(parseStructuredSummary("<analysis>thinking about User Intent ... cut off")).toBeNull();
    expect(parseStructuredSummary("")).toBeNull();
    expect(parseStructuredSummary("<analysis>" + good + "</analysis>")).toBeNull();
  });
});

describe("renderCompactedHistory", () => {
  it("starts with the summary marker and says what it covers", () => {
    const text = renderCompactedHistory("  - did X\n", {
      source: "mechanical",
      messageCount: 48,
      iterations: { from: 3, to: 9 },
      seqs: { from: 120, to: 167 },
    });
    expect(text.startsWith(MARKERS.summary)).toBe(true);
    expect(text.split("\n")[0]).toBe(`${MARKERS.summary} (iterations 3–9, 48 messages, seq 120–167, mechanical summary)`);
    expect(text).toContain("- did X");
    expect(text).toContain("recall");
  });

  it("bounds the summary body", () => {
    const text = renderCompactedHistory("z".repeat(50_000), { source: "llm", messageCount: 1, maxChars: 1_000 });
    expect(text.length).toBeLessThan(1_200);
    expect(text).toContain("[summary truncated]");
    expect(text).toContain("structured summary");
  });
});
