import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config.js";
import type { LoopEvent } from "../events.js";
import { memoryStore } from "../store/memory-store.js";
import { loopState, testSession } from "../test-support/loop-state.js";
import { commit, report } from "./commit.js";
import type { LoopDeps } from "./deps.js";
import type { LoopContext } from "./loop-context.js";

// The write path's contract: the store first, then the state, then the events, once; a write the
// store refuses changes nothing and says nothing.

async function context() {
  const store = memoryStore();
  const session = await testSession("s-commit", { hat: "creator" }, store);
  const events: LoopEvent[] = [];
  const seen: string[] = [];
  const state = loopState(session, { iteration: 3, eventIteration: 3 });
  const ctx: LoopContext = {
    deps: { store, sinks: [(e: LoopEvent) => events.push(e), () => seen.push(`event: live ${state.live.length}`)] } as unknown as LoopDeps,
    config: defaultConfig(),
    state,
    handoff: async () => null,
    knownTopics: new Set(),
    toolNames: [],
    loopTools: new Map(),
    memories: [],
    interactive: false,
    now: () => 1_000,
  };
  return { store, ctx, state, events, seen };
}

describe("commit, the loop's write path", () => {
  it("stores a change, then applies it, then emits its events stamped with the state's iteration", async () => {
    const { store, ctx, state, events, seen } = await context();
    const append = store.messages.append.bind(store.messages);
    store.messages.append = async (id, batch) => {
      seen.push(`store: live ${state.live.length}, seq ${batch[0]!.seq}`);
      return append(id, batch);
    };
    const message = {
      role: "user" as const,
      content: [{ type: "text" as const, text: "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789" }],
    };
    await commit(ctx, { type: "steered", message, steering: ["go on"] });
    expect(seen).toEqual(["store: live 0, seq 1", "event: live 1"]);
    // The state holds the message as stored: redacted.
    expect(JSON.stringify(state.live[0]!.message)).not.toContain("sk-ant-api03");
    expect(state.live[0]!.seq).toBe(1);
    expect(events.map((e) => [e.type, e.iteration, e.ts])).toEqual([["steer", 3, 1_000]]);
    report(ctx, { type: "model.text", data: { text: "hi" } });
    expect(events.at(-1)).toMatchObject({ type: "model.text", iteration: 3, sessionId: "s-commit", v: 1 });
  });

  it("changes nothing and says nothing when the store refuses the write", async () => {
    const { store, ctx, state, events } = await context();
    store.sessions.update = () => Promise.reject(new Error("connection lost"));
    const before = structuredClone({ ...state, hat: null });
    await expect(commit(ctx, { type: "scratchpad-replaced", scratchpad: "new plan" })).rejects.toThrow("connection lost");
    expect(structuredClone({ ...state, hat: null })).toEqual(before);
    expect(events).toEqual([]);
  });
});
