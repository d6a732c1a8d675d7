import type { Message } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { withConversationBreakpoint } from "./cache-breakpoints.js";

describe("withConversationBreakpoint", () => {
  it("turns a string user message into a marked text block", () => {
    const out = withConversationBreakpoint([{ role: "user", content: "hello" }], 2);
    expect(out).toEqual([{ role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }] }]);
  });

  it("marks the last non-empty block of the last user message, skipping a trailing assistant prefill", () => {
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "task" },
          { type: "text", text: "  " },
        ],
      },
      { role: "assistant", content: "Sure" },
    ];
    const out = withConversationBreakpoint(messages, 2);
    expect(out[0]?.content).toEqual([
      { type: "text", text: "task", cache_control: { type: "ephemeral" } },
      { type: "text", text: "  " },
    ]);
    expect(out[1]).toBe(messages[1]);
  });

  it("strips caller breakpoints beyond the budget, oldest first", () => {
    const cc = { type: "ephemeral" as const };
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "a", cache_control: cc }] },
      { role: "assistant", content: [{ type: "text", text: "b", cache_control: cc }] },
      { role: "user", content: "c" },
    ];
    const out = withConversationBreakpoint(messages, 2);
    expect(out[0]?.content).toEqual([{ type: "text", text: "a" }]);
    expect(out[1]?.content).toEqual([{ type: "text", text: "b", cache_control: cc }]);
    expect(messages[0]?.content).toEqual([{ type: "text", text: "a", cache_control: cc }]);
  });
});
