import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { boundJsonDepth, jsonText, type Message } from "@hatloop/context";
import type { NewCheckpoint, NewMessage } from "@hatloop/core";
import { openTestStore } from "../src/testing.js";
import { describeOnDrivers } from "./support/drivers.js";
import { newSession } from "./support/session.js";
import type { DbStore } from "../src/store.js";

// Content Postgres' text and jsonb cannot hold as it is — a NUL (U+0000), a lone UTF-16 surrogate —
// reaches the store from model text, tool inputs, command output (`git ls-files -z`) and files read.
// It used to fail the insert, and with it the session. Every column now stores it faithfully: what
// is read back equals what was written, also through search and the events table. The store used is
// the one hatloop runs on (openTestStore: redacting, on both drivers).

const NUL = "\u0000";
const HIGH = "\ud800"; // a high surrogate with no low one after it
const LOW = "\udc00"; // a low surrogate with no high one before it
/** Text with everything awkward, plus what the escaping itself uses (U+FFFF) and look-alikes of it. */
const HOSTILE = `src/a.ts${NUL}src/b.ts${NUL} zebra${HIGH}quagga ${LOW}x \uffff0 \uffff\uffff \uffffud800 ok😀`;

function binaryFile(): string {
  return `${"const x = 1;\n".repeat(700)}${NUL}${NUL}\u0001\u0002 trailing okapi`; // a NUL after 8 KiB
}

describeOnDrivers("hostile content on %s", (driver) => {
  let store: DbStore;
  let sessionId: string;
  beforeAll(async () => {
    store = await openTestStore(driver);
    sessionId = randomUUID();
    await store.sessions.create(
      newSession({
        id: sessionId,
        task: `fix it${NUL}${HIGH}`,
        title: `title${NUL}`,
        config: { note: HOSTILE, [`key${NUL}${HIGH}`]: [HOSTILE] },
      }),
    );
  });
  afterAll(async () => {
    await store?.close();
  });

  it("keeps messages exactly: model text, tool input keys and values, tool results, a file with a NUL after 8 KiB", async () => {
    const assistant: Message = {
      role: "assistant",
      content: [
        { type: "text", text: `Listing: ${HOSTILE}` },
        {
          type: "tool_use",
          id: "toolu_1",
          name: "run_command",
          input: { command: `git ls-files -z${NUL}`, [`odd${NUL}key${LOW}`]: { deep: [HOSTILE, 1, null] } },
        },
      ],
    };
    const user: Message = {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: `a.ts${NUL}b.ts${NUL}` },
        { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: binaryFile() }] },
      ],
    };
    const batch: NewMessage[] = [
      { seq: 1, iteration: 1, hat: "creator", kind: "conversation", message: assistant, tokenEstimate: 10 },
      { seq: 2, iteration: 1, hat: "creator", kind: "conversation", message: user, tokenEstimate: 10 },
      {
        seq: 3,
        iteration: 1,
        hat: "creator",
        kind: "conversation",
        message: { role: "user", content: `plain${NUL}string${HIGH}` },
        tokenEstimate: 1,
      },
    ];
    await store.messages.append(sessionId, batch);
    const back = await store.messages.range(sessionId, 1, 3);
    expect(back.map((m) => m.message)).toEqual(batch.map((m) => m.message));
  });

  it("keeps a tool input nested 100,000 levels deep (beyond what jsonb and JSON.stringify take), the deep part as its text", async () => {
    let input: unknown = { leaf: `end${NUL}` };
    for (let i = 0; i < 100_000; i++) input = { a: input };
    const message: Message = { role: "assistant", content: [{ type: "tool_use", id: "toolu_deep", name: "write_file", input }] };
    await store.messages.append(sessionId, [{ seq: 4, iteration: 2, hat: "creator", kind: "conversation", message, tokenEstimate: 1 }]);
    const [back] = await store.messages.range(sessionId, 4, 4);
    const [block] = back!.message.content as Array<{ input: unknown }>;
    // Redaction keeps 64 levels as structure, the rest as JSON text, as the loop does (toEqual recurses too deep here).
    expect(jsonText(block!.input)).toBe(jsonText(boundJsonDepth(input)));
  });

  it("finds them by the words around the NULs and surrogates, and returns them exactly; a NUL in the query is no error", async () => {
    for (const [query, seq] of [
      ["zebra quagga", 1],
      ["okapi", 2],
      ["plain", 3],
    ] as const) {
      const hits = await store.messages.search(sessionId, query);
      expect(hits.map((h) => h.seq)).toContain(seq);
      const [stored] = await store.messages.range(sessionId, seq, seq);
      expect(hits.find((h) => h.seq === seq)!.message).toEqual(stored!.message);
    }
    await expect(store.messages.search(sessionId, `zebra${NUL}${HIGH}`)).resolves.toBeInstanceOf(Array);
  });

  it("keeps events exactly", async () => {
    const payload = { text: HOSTILE, nested: { [`k${NUL}`]: [`${LOW}v`] } };
    await store.events.append(sessionId, [{ iteration: 1, type: "tool.result", payload }]);
    const [event] = await store.events.tail(sessionId, 1);
    expect(event!.payload).toEqual(payload);
    expect((await store.events.after(sessionId, 0)).at(-1)!.payload).toEqual(payload);
  });

  it("keeps sessions, checkpoints, the checklist and memories exactly", async () => {
    await store.sessions.update(sessionId, { scratchpad: `## Plan${NUL}${HIGH}`, lastError: `boom${NUL}` });
    const session = (await store.sessions.get(sessionId))!;
    expect(session).toMatchObject({
      task: `fix it${NUL}${HIGH}`,
      title: `title${NUL}`,
      scratchpad: `## Plan${NUL}${HIGH}`,
      lastError: `boom${NUL}`,
    });
    expect(session.config).toEqual({ note: HOSTILE, [`key${NUL}${HIGH}`]: [HOSTILE] });

    const checkpoint: NewCheckpoint = {
      reason: "interval",
      iteration: 1,
      hat: "creator",
      scratchpad: HOSTILE,
      context: { ranges: [[1, 3]], stubbed: [] },
      contextTokens: 1,
      lastError: `x${NUL}`,
      failedAt: null,
      recoveryHint: null,
      usage: { inputTokens: 1 },
      state: { health: { lastError: HOSTILE } },
      handoff: { continuation_prompt: HOSTILE },
      gitCommit: null,
    };
    await store.checkpoints.append(sessionId, checkpoint);
    expect(await store.checkpoints.latest(sessionId)).toMatchObject(checkpoint);

    await store.checklist.upsert(sessionId, [{ id: `a${NUL}`, description: HOSTILE }]);
    expect(await store.checklist.setStatus(sessionId, `a${NUL}`, "failed", `why${HIGH}`)).toBe(true);
    expect(await store.checklist.list(sessionId)).toEqual([
      { id: `a${NUL}`, description: HOSTILE, status: "failed", reason: `why${HIGH}` },
    ]);

    const memory = await store.memories.add({
      sessionId,
      repoPath: "/repo",
      kind: "memory",
      type: "pitfall",
      key: `k${NUL}`,
      content: HOSTILE,
      confidence: 0.6,
      source: "signal",
      iteration: 1,
    });
    expect(memory.content).toBe(HOSTILE);
    expect((await store.memories.listActive("/repo")).find((m) => m.id === memory.id)).toMatchObject({ key: `k${NUL}`, content: HOSTILE });
  });
});
