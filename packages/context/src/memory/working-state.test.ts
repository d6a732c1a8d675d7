import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import type { Message } from "../messages.js";
import { extractTopic, extractWorkingState, inferStatus, isInterrupted, lastToolCall, summarizeToolParams } from "./working-state.js";

const user = (text: string): Message => ({ role: "user", content: text });
const agent = (text: string): Message => ({ role: "assistant", content: text });
const call = (id: string, name: string, input: unknown): Message => ({
  role: "assistant",
  content: [{ type: "tool_use", id, name, input }],
});
const result = (id: string): Message => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] });

describe("extractTopic", () => {
  it("uses the last real user message, never injected text", () => {
    const messages = [
      user("Fix the flaky parser test"),
      agent("ok"),
      user(`${MARKERS.continuation} continue`),
      user(`${MARKERS.gauge}75%]`),
    ];
    expect(extractTopic(messages, "Task title")).toBe("Fix the flaky parser test");
  });

  it("falls back to the given topic", () => {
    expect(extractTopic([user(`${MARKERS.resume}\n**Task**: x`)], "Task title")).toBe("Task title");
  });
});

describe("lastToolCall", () => {
  it("names the last tool call with a short parameter summary", () => {
    const messages = [
      call("t1", "read_file", { path: "a.ts" }),
      result("t1"),
      call("t2", "run_command", { command: "pnpm test --run", timeout: 60 }),
    ];
    expect(lastToolCall(messages)).toEqual({ name: "run_command", params_summary: 'command="pnpm test --run", timeout=60' });
  });

  it("is null without tool calls", () => {
    expect(lastToolCall([user("hi"), agent("hello")])).toBeNull();
  });

  it("summarises bulky values by size and redacts secrets", () => {
    const summary = summarizeToolParams({
      path: "a.ts",
      content: "x\n".repeat(500),
      env: { A: "1" },
      token: "ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd",
    });
    expect(summary).toBe("path=a.ts, content=<1000 chars>, env={1 keys}, token=[REDACTED:github-token]");
  });
});

describe("inferStatus", () => {
  it("is in_progress with recent tool calls or an unanswered message", () => {
    expect(inferStatus([call("t1", "read_file", {}), result("t1"), agent("Read it.")])).toBe("in_progress");
    expect(inferStatus([user("Fix it")])).toBe("in_progress");
  });

  it("is waiting_for_user when the agent ends with a question", () => {
    expect(inferStatus([user("Fix it"), agent("Which branch should I use?")])).toBe("waiting_for_user");
  });

  it("is idle otherwise", () => {
    expect(inferStatus([user("Fix it"), agent("a"), agent("b"), agent("Done.")])).toBe("idle");
    expect(inferStatus([])).toBe("idle");
  });
});

describe("isInterrupted", () => {
  it("is true when the last tool call has no result", () => {
    expect(isInterrupted([call("t1", "write_file", { path: "a" })])).toBe(true);
    expect(isInterrupted([call("t1", "write_file", { path: "a" }), result("t1")])).toBe(false);
  });
});

describe("extractWorkingState", () => {
  it("takes the next action from the newest assistant text, then from fallbacks", () => {
    const withNext = [user("Fix it"), agent("Found the bug. Next: patch the tokenizer.")];
    expect(extractWorkingState(withNext, { fallbackTopic: "T", nextActionFallbacks: ["fallback"] }).next_action).toBe(
      "patch the tokenizer.",
    );
    const without = [user("Fix it"), agent("Looking.")];
    expect(
      extractWorkingState(without, { fallbackTopic: "T", nextActionFallbacks: [null, "  ", "first remaining item"] }).next_action,
    ).toBe("first remaining item");
  });
});
