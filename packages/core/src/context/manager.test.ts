import { describe, expect, it } from "vitest";
import type { Message } from "@hatloop/context";
import { defaultConfig } from "../config.js";
import type { ContextView } from "../state/context-hook.js";
import type { LiveEntry } from "../state/live-entry.js";
import { ModelError } from "../ports/model.js";
import { memoryStore } from "../store/memory-store.js";
import { contextView, guarded } from "../test-support/context-view.js";
import { createContextManager } from "./manager.js";

function view(tokensOfResults: number, turns: number, said: (turn: number) => string | null = () => null): ContextView {
  const live: LiveEntry[] = [{ seq: 1, kind: "conversation", message: { role: "user", content: "the task" } }];
  for (let i = 0; i < turns; i++) {
    const text = said(i);
    const use: Message = {
      role: "assistant",
      content: [
        ...(text ? [{ type: "text" as const, text }] : []),
        { type: "tool_use", id: `t${i}`, name: "read_file", input: { path: `f${i}` } },
      ],
    };
    const result: Message = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "x".repeat(tokensOfResults * 4) }],
    };
    live.push(
      { seq: live.length + 1, kind: "conversation", message: use },
      { seq: live.length + 2, kind: "conversation", message: result },
    );
  }
  return contextView(live, turns);
}

/** The texts of the packet a pruning injected. */
function packetOf(compaction: { live: LiveEntry[] }): string[] {
  return (compaction.live.find((e) => e.kind === "injected")!.message.content as Array<{ type: "text"; text: string }>).map((b) => b.text);
}

describe("context manager guard", () => {
  it("compacts once per pressure episode, but always past the hard limit", async () => {
    const manager = guarded(
      createContextManager({
        config: defaultConfig().context,
        store: memoryStore(),
        sessionId: "s",
        repoPath: "/r",
        summarizer: null,
      }),
    );
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

  it("carries the decisions in force through pruning: the running ones, those of the dropped turns, superseded ones replaced", async () => {
    const config = { ...defaultConfig().context, maxStubs: 1 };
    const manager = guarded(createContextManager({ config, store: memoryStore(), sessionId: "s", repoPath: "/r", summarizer: null }));
    const said = (turn: number) =>
      turn === 1
        ? "Setting HIGH_WATER_MARK=64 rows for the parser stream."
        : turn === 2
          ? "Reducing it to HIGH_WATER_MARK=16: at 64 the heap peaked at 310 MB."
          : null;
    const running = [{ id: "d1", what: "Use a quarantine table for rejected rows, because support downloads them.", when: null }];
    const before = { ...view(1_000, 9, said), decisions: running };
    manager.measure(before);
    const compaction = (await manager.beforeCall(before, new AbortController().signal))!;
    expect(compaction.strategy).toBe("pruning+mechanical-summary");
    expect(compaction.decisions!.map((d) => d.what)).toEqual([
      running[0]!.what,
      "Reducing it to HIGH_WATER_MARK=16: at 64 the heap peaked at 310 MB.",
    ]);
    // The packet's block lists them (the summary above it tells the history, old value included).
    const packet = compaction.live.find((e) => e.kind === "injected")!.message.content as Array<{ type: "text"; text: string }>;
    const block = packet.map((b) => b.text).find((t) => t.includes("Decisions still in force"))!;
    expect(block).toContain("HIGH_WATER_MARK=16");
    expect(block).not.toContain("HIGH_WATER_MARK=64");
    expect(block).toContain("quarantine table");
  });

  it("carries the newest failure through pruning, from the dropped turns or from the carry, unless a kept result shows one", async () => {
    const config = { ...defaultConfig().context, maxStubs: 1 };
    const signal = new AbortController().signal;
    const failing = (v: ContextView, turn: number, text: string): ContextView => ({
      ...v,
      live: v.live.map((e, i) =>
        i === 2 * turn + 2
          ? {
              ...e,
              message: {
                role: "user",
                content: [{ type: "tool_result", tool_use_id: `t${turn}`, is_error: true, content: `${text}\n${"x".repeat(4_000)}` }],
              },
            }
          : e,
      ),
    });
    const run = async (v: ContextView) => {
      const manager = guarded(createContextManager({ config, store: memoryStore(), sessionId: "s", repoPath: "/r", summarizer: null }));
      manager.measure(v);
      return (await manager.beforeCall(v, signal))!;
    };
    const line = "FAIL test/auth.test.ts > refreshes once";
    const dropped = await run(failing(view(1_000, 9), 1, line));
    expect(packetOf(dropped).find((t) => t.includes("The last failure seen"))).toContain(line);
    expect(dropped.lastFailure).toBe(line);

    const carried = await run({ ...view(1_000, 9), lastFailure: "FAIL test/old.test.ts > still broken" });
    expect(packetOf(carried).join("\n")).toContain("FAIL test/old.test.ts > still broken");

    const stillLive = await run({ ...failing(view(1_000, 9), 8, line), lastFailure: "FAIL test/old.test.ts > still broken" });
    expect(packetOf(stillLive).join("\n")).not.toContain("The last failure seen");
  });

  it("says why the LLM summary was not used when the mechanical one stood in", async () => {
    const config = { ...defaultConfig().context, maxStubs: 1, llmSummary: true };
    const down = { complete: () => Promise.reject(new ModelError("overloaded_error: Overloaded", 529)) };
    const manager = guarded(
      createContextManager({
        config,
        store: memoryStore(),
        sessionId: "s",
        repoPath: "/r",
        summarizer: { model: down, summaryModel: "small" },
      }),
    );
    const v = view(1_000, 9);
    manager.measure(v);
    const compaction = (await manager.beforeCall(v, new AbortController().signal))!;
    expect(compaction.strategy).toBe("pruning+mechanical-summary");
    expect(compaction.summaryFallback).toContain("Overloaded");
  });
});
