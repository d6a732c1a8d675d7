import { describe, expect, it } from "vitest";
import type { Message } from "../messages.js";
import { sendable, sendableMessages } from "./sendable.js";
import { validatePairing } from "./validate-pairing.js";

describe("sendable", () => {
  it("leaves out whitespace-only and empty text blocks, as the API rejects them when sent back", () => {
    const history: Message[] = [
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "\n\n" },
          { type: "tool_use", id: "t1", name: "read_file", input: {} },
          { type: "text", text: " " },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "x" },
          { type: "text", text: "" },
        ],
      },
    ];
    const out = sendable(history);
    expect(out.blankBlocks).toBe(3);
    expect(out.messages[1]!.content).toEqual([{ type: "tool_use", id: "t1", name: "read_file", input: {} }]);
    expect(out.messages[2]!.content).toEqual([{ type: "tool_result", tool_use_id: "t1", content: "x" }]);
    expect(validatePairing(out.messages)).toEqual([]);
  });

  it("leaves out a message with nothing else, merging its neighbours with tool results first", () => {
    const history: Message[] = [
      { role: "user", content: "task" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ls", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a" }] },
      { role: "assistant", content: [{ type: "text", text: "  \n" }] },
      { role: "user", content: [{ type: "text", text: "continue" }] },
    ];
    const out = sendable(history);
    expect(out.emptyMessages).toBe(1);
    expect(out.messages).toHaveLength(3);
    expect(out.messages[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "a" },
      { type: "text", text: "continue" },
    ]);
    expect(validatePairing(out.messages)).toEqual([]);
  });

  it("puts merged tool results before text, and keeps untouched messages as they are", () => {
    const note: Message = { role: "user", content: [{ type: "text", text: "note" }] };
    const results: Message = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "r" }] };
    const task: Message = { role: "user", content: "task" };
    const use: Message = { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "x", input: {} }] };
    const out = sendableMessages([task, use, note, results]);
    expect(out[0]).toBe(task);
    expect(out[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "r" },
      { type: "text", text: "note" },
    ]);
  });

  it("sends lone surrogates (a tool output cut inside an emoji) as U+FFFD, stored text untouched", () => {
    const cut = "smile \ud83d";
    const history: Message[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: cut },
          { type: "text", text: `note ${cut}` },
        ],
      },
    ];
    const out = sendableMessages(history);
    expect(JSON.stringify(out[2])).not.toMatch(/\\ud83d/);
    expect(out[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "smile \ufffd" },
      { type: "text", text: "note smile \ufffd" },
    ]);
    expect(history[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: cut },
      { type: "text", text: `note ${cut}` },
    ]);
    expect(out[0]).toBe(history[0]);
  });
});
