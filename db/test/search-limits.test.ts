import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Message } from "@hatloop/context";
import { openTestStore } from "../src/testing.js";
import { describeOnDrivers } from "./support/drivers.js";
import { newSession } from "./support/session.js";
import type { DbStore } from "../src/store.js";

// One tsvector holds at most 1 MB. A turn of 300 parallel file reads (more than ~27k distinct words)
// made the index fail the insert, and the session with it. Now the message is always kept whole and
// the longest prefix of its words that fits is indexed.

/** `count` distinct words, like the identifiers and hashes of many source files. */
function distinctWords(count: number, from = 0): string {
  return Array.from({ length: count }, (_, i) => `ident${(from + i).toString(36)}x${((from + i) * 7919).toString(16)}`).join(" ");
}

describeOnDrivers("full-text limits on %s", (driver) => {
  let store: DbStore;
  const sessionId = randomUUID();
  beforeAll(async () => {
    store = await openTestStore(driver);
    await store.sessions.create(newSession({ id: sessionId }));
  });
  afterAll(async () => {
    await store?.close();
  });

  it("keeps a message with 300 tool results of 200 distinct words each, and finds its first words", async () => {
    const results: Message = {
      role: "user",
      content: Array.from({ length: 300 }, (_, i) => ({
        type: "tool_result" as const,
        tool_use_id: `toolu_${i}`,
        content: distinctWords(200, i * 200),
      })),
    };
    await store.messages.append(sessionId, [
      { seq: 1, iteration: 1, hat: "creator", kind: "conversation", message: results, tokenEstimate: 1 },
    ]);
    const [back] = await store.messages.range(sessionId, 1, 1);
    expect(back!.message).toEqual(results);
    const first = distinctWords(1);
    expect((await store.messages.search(sessionId, first)).map((h) => h.seq)).toEqual([1]);
  });

  it("still indexes an ordinary message whole", async () => {
    const text: Message = { role: "assistant", content: [{ type: "text", text: `${distinctWords(50)} closing marmot` }] };
    await store.messages.append(sessionId, [
      { seq: 2, iteration: 1, hat: "creator", kind: "conversation", message: text, tokenEstimate: 1 },
    ]);
    expect((await store.messages.search(sessionId, "marmot")).map((h) => h.seq)).toEqual([2]);
  });
});
