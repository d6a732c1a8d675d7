import { describe, expect, it } from "vitest";
import type { Message } from "@hatloop/context";
import { defaultConfig } from "../config.js";
import type { ContextView, LiveEntry } from "../loop/context-hook.js";
import { memoryStore } from "../store/memory-store.js";
import { createContextManager } from "./manager.js";

function view(tokensOfResults: number, turns: number): ContextView {
  const live: LiveEntry[] = [{ seq: 1, kind: "conversation", message: { role: "user", content: "the task" } }];
  for (let i = 0; i < turns; i++) {
    const use: Message = { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read_file", input: { path: `f${i}` } }] };
    const result: Message = { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "x".repeat(tokensOfResults * 4) }] };
    live.push({ seq: live.length + 1, kind: "conversation", message: use }, { seq: live.length + 2, kind: "conversation", message: result });
  }
  return { sessionId: "s", iteration: turns, hat: "creator", model: "m", contextWindow: 10_000, live, system: [], tools: [], anchor: null, stubbed: new Set(), scratchpad: "", task: "the task", instructions: [], openItems: [] };
}

describe("context manager guard", () => {
  it("compacts once per pressure episode, but always past the hard limit", async () => {
    const manager = createContextManager({ config: defaultConfig().context, store: memoryStore(), sessionId: "s", repoPath: "/r", summarizer: null });
    const signal = new AbortController().signal;
    expect(manager.measure(view(1_000, 9)).zone).toBe("compact"); // ~9.1k of 10k: the latch fires
    expect(await manager.beforeCall(view(1_000, 9), signal)).not.toBeNull();
    // Still in the same episode (never back under the re-arm line): no second compaction at 92%...
    manager.measure(view(920, 10));
    expect(await manager.beforeCall(view(920, 10), signal)).toBeNull();
    // ...but at 97% of the window the request would not fit: compact anyway.
    expect(manager.measure(view(1_000, 10)).percent).toBeGreaterThanOrEqual(97);
    expect(await manager.beforeCall(view(1_000, 10), signal)).not.toBeNull();
  });
});
