import { describe, expect, it } from "vitest";
import { highlight, markdownLines, plainLines } from "./styled-lines.js";

// The transcript's line builder: Markdown as the terminal shows it, wrapped between words and never
// cut, and a search's matches marked.

const texts = (lines: Array<{ text: string }>) => lines.map((l) => l.text);

describe("markdown lines", () => {
  it("renders headings, lists, quotes, fenced code and inline styles, dropping their markers", () => {
    const lines = markdownLines(
      ["## The plan", "- inject the **clock**", "2. run `npm test`", "> a quote", "```ts", "const a = 1;", "```", "done"].join("\n"),
      40,
    );
    expect(texts(lines)).toEqual(["The plan", "• inject the clock", "2. run npm test", "│ a quote", "│ const a = 1;", "done"]);
    expect(lines[0]!.spans).toEqual([{ text: "The plan", style: "heading" }]);
    expect(lines[1]!.spans).toContainEqual({ text: "clock", style: "bold" });
    expect(lines[2]!.spans).toContainEqual({ text: "npm test", style: "code" });
    expect(lines[4]!.spans).toContainEqual({ text: "const a = 1;", style: "block" });
    expect(lines[5]!.spans).toBeNull();
  });

  it("wraps between words under a list item's text and never cuts or drops a word", () => {
    const item = "- the quick brown fox jumps over the lazy dog and keeps running far away";
    const lines = texts(markdownLines(item, 20));
    expect(lines.every((l) => l.length <= 20)).toBe(true);
    expect(lines.some((l) => l.includes("…"))).toBe(false);
    expect(lines[0]!.startsWith("• ")).toBe(true);
    expect(lines.slice(1).every((l) => l.startsWith("  ") && !l.startsWith("   "))).toBe(true);
    expect(
      lines
        .join(" ")
        .replace(/[•\s]+/g, " ")
        .trim(),
    ).toBe(item.slice(2));
  });

  it("splits a word longer than the line", () => {
    expect(texts(markdownLines("x".repeat(25), 10))).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });
});

describe("plain lines", () => {
  it("wraps each line under its own indent", () => {
    expect(texts(plainLines("   checklist + 1. one two three four", 16))).toEqual(["   checklist +", "   1. one two", "   three four"]);
  });
});

describe("highlight", () => {
  it("marks every match case-insensitively, across styled spans, and leaves a line without one as it was", () => {
    const [line] = markdownLines("Run `npm test`, then npm again", 60);
    const spans = highlight(line!, "NPM")!;
    expect(spans.filter((s) => s.style === "match").map((s) => s.text)).toEqual(["npm", "npm"]);
    expect(spans.map((s) => s.text).join("")).toBe(line!.text);
    expect(spans).toContainEqual({ text: " test", style: "code" });
    expect(highlight(line!, "absent")).toBe(line!.spans);
  });
});
