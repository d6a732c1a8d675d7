import { describe, expect, it } from "vitest";
import { initialState } from "./initial.js";
import { createTuiStore } from "./store.js";
import { event, NOW, snapshot } from "../test-support/fixtures.js";

describe("TUI store", () => {
  it("tells the view once per frame however many events arrive", async () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 30 });
    let renders = 0;
    store.subscribe(() => renders++);
    for (let i = 0; i < 2_000; i++) store.push(event("model.text", { text: "x" }, 1));
    expect(renders).toBe(0);
    await new Promise((r) => setTimeout(r, 80));
    expect(renders).toBe(1);
    expect(store.getState().streaming?.text.length).toBe(2_000);
  });

  it("keeps a response's streamed text, bounded, and voids it on a retry", () => {
    const store = createTuiStore(initialState(snapshot(), NOW), { frameMs: 0 });
    store.push(event("model.text", { text: "y".repeat(10_000) }, 1));
    expect(store.getState().streaming?.text.length).toBe(4_000);
    store.push(event("model.retry", { attempt: 1, waitMs: 10, status: 529, reason: "overloaded" }, 1));
    expect(store.getState().streaming).toBeNull();
    expect(store.getState().activity.map((a) => a.tone)).toEqual(["warn"]);
    store.push(event("model.text", { text: "the real answer" }, 1));
    store.push(event("model.response", { stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, toolCalls: 0, textChars: 15 }, 1));
    expect(store.getState().activity.at(-1)).toMatchObject({ tone: "text", text: "the real answer" });
  });

  it("keeps the elapsed clock across pauses from status events", () => {
    let now = NOW;
    const store = createTuiStore(initialState(snapshot({ status: "running", runtimeMs: 1_000 }), NOW), { frameMs: 0, now: () => now });
    now += 5_000;
    store.push(event("session.status", { status: "paused", reason: "paused by the user" }, 1));
    expect(store.getState()).toMatchObject({ status: "paused", runtimeMs: 6_000, runningSince: null });
    now += 60_000;
    store.push(event("session.status", { status: "running", reason: "continued by the user" }, 1));
    expect(store.getState()).toMatchObject({ status: "running", runningSince: now });
  });
});
