import { describe, expect, it } from "vitest";
import { memoryStore } from "../store/memory-store.js";
import { followEvents } from "./follow-events.js";

/** Counts the reads followEvents makes (its polls). */
function countPolls(store: ReturnType<typeof memoryStore>): () => number {
  let reads = 0;
  const after = store.events.after.bind(store.events);
  store.events.after = async (...args) => {
    const read = await after(...args);
    reads++;
    return read;
  };
  return () => reads;
}

/** Waits for a condition, never for a time (the runner's ceiling ends a wait that never ends). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe("followEvents", () => {
  it("delivers new events in order and leaves no listeners behind however long it waits", async () => {
    const store = memoryStore();
    const stop = new AbortController();
    const seen: string[] = [];
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    const polls = countPolls(store);
    const following = followEvents(store, "s", (events) => seen.push(...events.map((e) => e.type)), { intervalMs: 5, signal: stop.signal });
    await store.events.append("s", [{ iteration: 1, type: "iteration.start", payload: { hat: "planner" } }]);
    await until(() => polls() >= 40); // past the 10 listeners Node warns about
    await store.events.append("s", [{ iteration: 1, type: "iteration.end", payload: { hat: "planner", durationMs: 1 } }]);
    await until(() => seen.length === 2);
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
    const arrivals: string[] = [];
    const polls = countPolls(store);
    // It would poll again only in an hour, past the runner's ceiling: only the notification delivers.
    const following = followEvents(store, "s", (events) => arrivals.push(...events.map((e) => e.type)), {
      intervalMs: 3_600_000,
      signal: stop.signal,
    });
    await until(() => polls() >= 1); // subscribed and caught up: nothing more comes without a wake-up
    await store.events.append("s", [{ iteration: 1, type: "iteration.start", payload: { hat: "planner" } }]);
    notify();
    await until(() => arrivals.length > 0);
    stop.abort();
    await following;
    expect(arrivals).toEqual(["iteration.start"]);
  });
});
