import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { memoryStore, type NewEvent } from "@hatloop/core";
import { currentStatus } from "../src/session/liveness.js";
import { newSession } from "./support/session.js";

// The status ls and show give a live run: "paused" when its newest readable session.status event
// says so. Stored events are checked against the event union first, never cast.

const ID = "a1fe0000-0000-4000-8000-000000000001";

async function liveRunWith(events: NewEvent[]) {
  const store = memoryStore();
  await store.sessions.create(newSession({ id: ID, status: "running" }));
  await store.sessions.acquireLease(ID, `${hostname()}:${process.pid}`, 60_000);
  await store.events.append(ID, events);
  return currentStatus(store, (await store.sessions.get(ID))!);
}

const status = (payload: unknown, version = 1): NewEvent => ({ iteration: 1, type: "session.status", payload, version });

describe("currentStatus", () => {
  it("is paused when the run's newest session.status says so", async () => {
    expect(
      await liveRunWith([status({ status: "running", reason: null }), status({ status: "paused", reason: "paused by the user" })]),
    ).toBe("paused");
    expect(
      await liveRunWith([status({ status: "paused", reason: "paused by the user" }), status({ status: "running", reason: null })]),
    ).toBe("running");
  });

  it("passes over a session.status it cannot read: damaged, or written by a newer hatloop", async () => {
    const running = status({ status: "running", reason: "continued by the user" });
    expect(await liveRunWith([running, status({ status: "paused", reason: 7 })])).toBe("running");
    expect(await liveRunWith([running, status({ status: "paused", reason: "paused by the user" }, 2)])).toBe("running");
  });
});
