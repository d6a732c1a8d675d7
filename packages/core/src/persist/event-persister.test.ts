import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../events.js";
import { memoryStore } from "../store/memory-store.js";
import { createEventPersister } from "./event-persister.js";
import { parseStoredEvent } from "./read-events.js";

const text = (t: string, iteration = 1): LoopEvent => ({ v: 1, sessionId: "s", iteration, ts: 0, type: "model.text", data: { text: t } });

describe("event persister", () => {
  it("merges consecutive text deltas of one iteration and writes in batches", async () => {
    const store = memoryStore({ redact: false }); // what the persister writes, not what redaction makes of it
    const persister = createEventPersister(store, "s", { flushMs: 10_000 });
    persister.sink(text("Hel"));
    persister.sink(text("lo"));
    persister.sink({ v: 1, sessionId: "s", iteration: 1, ts: 0, type: "iteration.end", data: { hat: "planner", durationMs: 5 } });
    persister.sink(text("next", 2));
    expect(await store.events.after("s", 0)).toHaveLength(0);
    await persister.close();
    const stored = await store.events.after("s", 0);
    expect(stored.map((e) => [e.type, e.payload])).toEqual([
      ["model.text", { text: "Hello" }],
      ["iteration.end", { hat: "planner", durationMs: 5 }],
      ["model.text", { text: "next" }],
    ]);
    expect(stored.map((e) => e.version)).toEqual([1, 1, 1]);
    expect(parseStoredEvent(stored[0]!)).toMatchObject({
      ok: true,
      event: { v: 1, sessionId: "s", iteration: 1, type: "model.text", data: { text: "Hello" } },
    });
  });

  it("never loses text that arrives while a batch is being written, and retries failed writes", async () => {
    const store = memoryStore({ redact: false }); // what the persister writes, not what redaction makes of it
    let release!: () => void;
    let fail = true;
    // Resolves when the next write reaches the store and waits there for release().
    let writeStarted: () => void = () => {};
    const nextWrite = () => new Promise<void>((r) => (writeStarted = r));
    const append = store.events.append.bind(store.events);
    store.events.append = async (id, batch) => {
      if (fail) {
        fail = false;
        throw new Error("database went away");
      }
      const released = new Promise<void>((r) => (release = r));
      writeStarted();
      await released;
      return append(id, structuredClone(batch));
    };
    const persister = createEventPersister(store, "s", { flushMs: 10_000 });
    persister.sink(text("a"));
    await persister.flush();
    expect(persister.errors.map((e) => e.message)).toEqual(["database went away"]);
    let inFlight = nextWrite();
    const writing = persister.flush();
    await Promise.race([inFlight, writing]); // "a" being written (a flush that wrote nothing would end)
    persister.sink(text("b")); // the "a" event is in flight: "b" must become a new event
    release();
    await writing;
    inFlight = nextWrite();
    const closing = persister.close();
    await Promise.race([inFlight, closing]); // "b" being written, or (had it been lost) nothing left to write
    release();
    await closing;
    expect((await store.events.after("s", 0)).map((e) => (e.payload as { text: string }).text)).toEqual(["a", "b"]);
  });
});
