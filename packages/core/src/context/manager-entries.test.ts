import { describe, expect, it } from "vitest";
import { MARKERS, toolResults, toolResultText, type Message } from "@hatloop/context";
import { defaultConfig } from "../config.js";
import type { ContextView } from "../state/context-hook.js";
import type { LiveEntry } from "../state/live-entry.js";
import { memoryStore } from "../store/memory-store.js";
import { contextView, guarded } from "../test-support/context-view.js";
import { createContextManager } from "./manager.js";

// The context package hands the manager's own live entries back (kept, dropped, cut), so what
// stays keeps its seq and kind, and what compaction rewrote becomes a message of its own.

/** A task, then steps that each read a file and close with the loop's note, so each note opens a turn. */
function history(resultChars: (step: number) => number, steps: number): LiveEntry[] {
  const messages: Message[] = [{ role: "user", content: "the task" }];
  for (let i = 0; i < steps; i++) {
    messages.push(
      { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read_file", input: { path: `f${i}` } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: `t${i}`, content: "x".repeat(resultChars(i)) },
          { type: "text", text: `[hatloop] Iteration ${i + 1}. Continue.` },
        ],
      },
    );
  }
  return messages.map((message, i) => ({ seq: i + 1, kind: "conversation", message }));
}

function view(live: LiveEntry[]): ContextView {
  return contextView(live, live.length);
}

const manager = () =>
  guarded(
    createContextManager({
      config: { ...defaultConfig().context, maxStubs: 1 },
      store: memoryStore(),
      sessionId: "s",
      repoPath: "/r",
      summarizer: null,
    }),
  );

async function compact(v: ContextView) {
  const m = manager();
  m.measure(v);
  return (await m.beforeCall(v, new AbortController().signal))!;
}

const shape = (live: readonly LiveEntry[]) => live.map((e) => [e.seq, e.kind]);

describe("the context manager's entries through compaction", () => {
  it("pins the task entry, summarises the dropped entries, and stores the trimmed opening anew", async () => {
    const live = [
      ...history(() => 4_000, 9),
      { seq: 20, kind: "conversation" as const, message: { role: "assistant" as const, content: "Read." } },
    ];
    const compaction = await compact(view(live));
    expect(compaction.strategy).toBe("pruning+mechanical-summary");
    // task, the packet, the newest turn's opening without the results of the dropped turn, its reply
    expect(shape(compaction.live)).toEqual([
      [1, "conversation"],
      [null, "injected"],
      [null, "injected"],
      [20, "conversation"],
    ]);
    expect(compaction.live[0]).toBe(live[0]);
    expect(compaction.live[2]!.message).toEqual({ role: "user", content: [{ type: "text", text: "[hatloop] Iteration 9. Continue." }] });
    expect(compaction.live[3]!.message).toBe(live[19]!.message);
    // Every dropped entry but the pinned task, by its seq.
    expect(compaction.summary).toContain("17 messages, seq 2–18");
  });

  it("cuts a result too big for the window into a message of its own; the other entries keep theirs", async () => {
    // The last results come without a note: they belong to the newest turn, which pruning keeps whole.
    const live = history((i) => (i === 2 ? 60_000 : 400), 3).map((e, i, all) =>
      i === all.length - 1 ? { ...e, message: { role: "user" as const, content: toolResults(e.message) } } : e,
    );
    const compaction = await compact(view(live));
    expect(compaction.strategy).toBe("pruning+mechanical-summary+cut");
    expect(shape(compaction.live)).toEqual([
      [1, "conversation"],
      [null, "injected"],
      [null, "injected"],
      [6, "conversation"],
      [null, "injected"],
    ]);
    expect(compaction.live[3]).toEqual(live[5]);
    expect(toolResultText(toolResults(compaction.live[4]!.message)[0]!)).toMatch(/\[hatloop cut: \d+ of 60000 characters/);
  });

  it("restubs restored entries, naming each result's seq and keeping seqs and kinds", () => {
    const live = history(() => 400, 3).map((e): LiveEntry => (e.seq === 5 ? { ...e, kind: "injected" } : e));
    const restored = manager().restub(live, new Set(["t0", "t1"]));
    expect(shape(restored)).toEqual(shape(live));
    const stubs = restored.flatMap((e) => toolResults(e.message)).map((r) => toolResultText(r));
    expect(stubs[0]).toContain(`${MARKERS.removedResult}: id t0, seq 3]`);
    expect(stubs[1]).toContain(`${MARKERS.removedResult}: id t1, seq 5]`);
    expect(stubs[2]).toBe("x".repeat(400));
    expect(restored[0]!.message).toBe(live[0]!.message);
  });
});
