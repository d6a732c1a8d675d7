import { describe, expect, it } from "vitest";
import { busyStore, event, NOW } from "../test-support/fixtures.js";
import { doingLine } from "./doing.js";

// The live "doing X for N s" line, from the events alone.

const at = (ms: number) => ({ ...event("model.request", { model: "m", messages: 1, contextTokens: 1 }, 4), ts: NOW + ms });

describe("doing line", () => {
  it("follows a model call, then a tool call until its result, then nothing once the iteration ends", () => {
    const store = busyStore();
    const state = () => store.getState();
    expect(doingLine(state(), NOW)).toBeNull();
    store.push(at(0));
    expect(doingLine(state(), NOW + 3_000)).toBe("doing for 3s: waiting for the model");
    store.push(event("model.text", { text: "Let me look." }, 4));
    expect(doingLine(state(), NOW + 4_000)).toBe("doing for 4s: the model is writing");
    store.push(
      event(
        "model.response",
        {
          stopReason: "tool_use",
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0,
          toolCalls: 1,
          textChars: 12,
        },
        4,
      ),
    );
    store.push({ ...event("tool.call", { id: "t9", name: "run_command", summary: "npm   test" }, 4), ts: NOW + 5_000 });
    expect(doingLine(state(), NOW + 17_000)).toBe("doing for 12s: run_command npm test");
    store.push(event("tool.result", { id: "t9", name: "run_command", isError: false, chars: 3, durationMs: 12_000, preview: "ok" }, 4));
    expect(doingLine(state(), NOW + 18_000)).toBeNull();
    store.push(at(20_000));
    store.push(event("iteration.end", { hat: "creator", durationMs: 30_000 }, 4));
    expect(doingLine(state(), NOW + 21_000)).toBeNull();
  });
});
