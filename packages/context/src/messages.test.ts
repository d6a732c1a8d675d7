import { describe, expect, it } from "vitest";
import { blocksOf, textOf, toolResultText, toolResults, toolUses, type Message } from "./messages.js";

describe("message helpers", () => {
  const assistant: Message = {
    role: "assistant",
    content: [
      { type: "text", text: "Reading the test." },
      { type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } },
      { type: "tool_use", id: "t2", name: "search", input: { pattern: "flaky" } },
    ],
  };
  const results: Message = {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "t1", content: "export const a = 1;" },
      {
        type: "tool_result",
        tool_use_id: "t2",
        content: [
          { type: "text", text: "a.ts:1" },
          { type: "image", source: { type: "url", url: "x" } },
        ],
        is_error: true,
      },
    ],
  };

  it("treats string content as one text block", () => {
    expect(blocksOf({ role: "user", content: "hi" })).toEqual([{ type: "text", text: "hi" }]);
    expect(textOf({ role: "user", content: "hi" })).toBe("hi");
  });

  it("separates text, tool uses and tool results", () => {
    expect(textOf(assistant)).toBe("Reading the test.");
    expect(toolUses(assistant).map((t) => t.id)).toEqual(["t1", "t2"]);
    expect(toolResults(assistant)).toEqual([]);
    expect(toolResults(results).map((r) => toolResultText(r))).toEqual(["export const a = 1;", "a.ts:1\n[image]"]);
  });
});
