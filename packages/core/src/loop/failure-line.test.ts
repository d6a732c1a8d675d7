import { expect, it } from "vitest";
import { memoryStore } from "../store/memory-store.js";
import { runFixture } from "../test-support/loop-fixture.js";

// A database error carries the whole query and its parameters ("Failed query: insert ...\nparams:
// <every message>"): megabytes, stored as the session's stop reason and last error and printed in
// three events. What is stored and printed is one line, capped, with the cause that explains it.

const MAX = 500;

it("a multi-megabyte multi-line error is stored and reported as one capped line, with its cause", async () => {
  const store = memoryStore();
  const append = store.messages.append.bind(store.messages);
  let calls = 0;
  store.messages.append = async (sessionId, batch) => {
    if (++calls === 2) {
      const cause = new Error("string is too long for tsvector (1252242 bytes, max 1048575 bytes)");
      throw new Error(`Failed query: insert into "messages" ("content") values ($1)\nparams: ${"x y\n".repeat(1_000_000)}`, { cause });
    }
    return append(sessionId, batch);
  };
  const run = await runFixture({ store, createSession: true, turns: [{ text: "hello" }] });
  expect(run.outcome.status).toBe("failed");
  const checkpoint = (await store.checkpoints.latest(run.session.id))!;
  const texts = [
    run.outcome.reason,
    run.session.stopReason!,
    run.session.lastError!,
    checkpoint.lastError!,
    ...run.of("error").map((e) => e.data.message),
    ...run.of("session.status").map((e) => e.data.reason ?? ""),
    ...run.of("session.end").map((e) => e.data.reason),
  ];
  for (const text of texts) {
    expect(text.length).toBeLessThanOrEqual(MAX);
    expect(text).not.toContain("\n");
  }
  expect(run.outcome.reason).toMatch(/^Failed query: insert into "messages".*string is too long for tsvector/);
});
