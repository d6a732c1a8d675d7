import { describe, expect, it } from "vitest";
import { memoryStore } from "../store/memory-store.js";
import { followEvents } from "./follow-events.js";

describe("followEvents", () => {
  it("delivers new events in order and leaves no listeners behind however long it waits", async () => {
    const store = memoryStore();
    const stop = new AbortController();
    const seen: string[] = [];
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    const following = followEvents(store, "s", (events) => seen.push(...events.map((e) => e.type)), { intervalMs: 5, signal: stop.signal });
    await store.events.append("s", [{ iteration: 1, type: "iteration.start", payload: { hat: "planner" } }]);
    await new Promise((r) => setTimeout(r, 200)); // ~40 polls
    await store.events.append("s", [{ iteration: 1, type: "iteration.end", payload: { hat: "planner", durationMs: 1 } }]);
    await new Promise((r) => setTimeout(r, 30));
    stop.abort();
    await following;
    process.off("warning", onWarning);
    expect(seen).toEqual(["iteration.start", "iteration.end"]);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("wakes at once when the store pushes a notification", async () => {
    const store = memoryStore();
    let notify: () => void = () => {};
    store.events.subscribe = async (_id, onAppend) => {
      notify = onAppend;
      return async () => {};
    };
    const stop = new AbortController();
    const arrivals: number[] = [];
    const following = followEvents(store, "s", () => arrivals.push(Date.now()), { intervalMs: 10_000, signal: stop.signal });
    await new Promise((r) => setTimeout(r, 20));
    const sent = Date.now();
    await store.events.append("s", [{ iteration: 1, type: "iteration.start", payload: { hat: "planner" } }]);
    notify();
    await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    await following;
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]! - sent).toBeLessThan(50);
  });
});
