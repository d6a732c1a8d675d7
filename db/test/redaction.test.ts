import { afterAll, beforeAll, expect, it } from "vitest";
import { createEventPersister, type NewSession } from "@hatloop/core";
import { openTestStore } from "../src/testing.js";
import { describeOnDrivers } from "./support/drivers.js";
import type { DbStore } from "../src/store.js";
import { newSession } from "./support/session.js";

// Nothing a store write carries may keep a secret, whichever field it is in: the store is the one
// place where persisted text is redacted. Fake credentials of the right shapes (none is real).

const SECRETS = {
  anthropic: "sk-ant-api03-Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0-AbCdEf",
  github: "ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd",
  aws: "AKIAIOSFODNN7EXAMPLE",
  dbPassword: "Pw9xQ2mZr7Lk",
  entropy: "Qm3xT9vLk2Rp8Zw4Nc7Yb1Hd6Fs5Gj0A",
  privateKey: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7",
};
const TEXT = `key ${SECRETS.anthropic} and ${SECRETS.github}, aws ${SECRETS.aws}, db postgres://app:${SECRETS.dbPassword}@db.example:5432/app, session ${SECRETS.entropy}
-----BEGIN PRIVATE KEY-----
${SECRETS.privateKey}
-----END PRIVATE KEY-----
`;

function leaks(dump: string): string[] {
  return Object.entries(SECRETS)
    .filter(([, secret]) => dump.includes(secret))
    .map(([kind]) => kind);
}

async function dumpAll(store: DbStore): Promise<string> {
  const tables = ["sessions", "messages", "checkpoints", "events", "checklist_items", "memories"];
  const rows = await Promise.all(tables.map((t) => store.database.db.execute(`select row_to_json(t)::text as row from ${t} t`)));
  return JSON.stringify(rows);
}

/** A session whose text columns carry secrets. */
function secretSession(overrides: Partial<NewSession> = {}): NewSession {
  return newSession({
    task: `fix it: ${TEXT}`,
    title: `fix ${SECRETS.github}`,
    config: {
      databaseUrl: `postgres://app:${SECRETS.dbPassword}@db.example:5432/app`,
      gates: { test: `TOKEN=${SECRETS.entropy} npm test` },
    },
    gateBaseline: { checks: { test: { command: "npm test", failures: [`expected ${SECRETS.github}`] } } },
    ...overrides,
  });
}

describeOnDrivers("redaction at the store boundary on %s", (driver) => {
  let store: DbStore;
  beforeAll(async () => {
    store = await openTestStore(driver);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("stores no secret in any field of any table, and keeps references as they are", async () => {
    const s = await store.sessions.create(secretSession());
    await store.sessions.update(s.id, {
      scratchpad: `## Notes\n${TEXT}`,
      lastError: `run_command failed: ${TEXT}`,
      stopReason: `health: ${SECRETS.github}`,
    });
    await store.messages.append(s.id, [
      {
        seq: 1,
        iteration: 1,
        hat: "creator",
        kind: "conversation",
        message: {
          role: "assistant",
          content: [
            { type: "text", text: TEXT },
            {
              type: "tool_use",
              id: "toolu_01XFDUDYJgAACzvnptvVer6uXYZ123",
              name: "run_command",
              input: { command: `echo ${SECRETS.github}` },
            },
          ],
        },
        tokenEstimate: 10,
      },
      {
        seq: 2,
        iteration: 1,
        hat: "creator",
        kind: "conversation",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01XFDUDYJgAACzvnptvVer6uXYZ123", content: TEXT }] },
        tokenEstimate: 10,
      },
    ]);
    const stubbed = ["toolu_01XFDUDYJgAACzvnptvVer6uXYZ123Qm3xT9vLk2Rp8Zw4"];
    const context = { ranges: [[1, 2]], stubbed };
    await store.checkpoints.append(s.id, {
      reason: "failure",
      iteration: 1,
      hat: "creator",
      scratchpad: TEXT,
      context,
      contextTokens: 10,
      lastError: TEXT,
      failedAt: `iteration 1: ${SECRETS.aws}`,
      recoveryHint: TEXT,
      usage: { inputTokens: 1 },
      state: {
        version: 1,
        stubbed,
        checklist: [{ id: "1", description: TEXT, status: "failed", reason: TEXT }],
        health: { lastError: TEXT, lastCall: `run_command ${TEXT}` },
        notes: [TEXT],
        instructions: [TEXT],
      },
      handoff: { task_title: TEXT, working_state: { next_action: TEXT } },
      gitCommit: "b".repeat(40),
    });
    await store.events.append(s.id, [{ iteration: 1, type: "tool.call", payload: { id: "t", name: "run_command", summary: TEXT } }]);
    await store.checklist.upsert(s.id, [{ id: "1", description: `rotate ${SECRETS.github}` }]);
    await store.checklist.setStatus(s.id, "1", "failed", `still ${SECRETS.anthropic}`);
    const memory = await store.memories.add({
      sessionId: s.id,
      repoPath: "/repo",
      kind: "memory",
      type: "pitfall",
      key: null,
      content: TEXT,
      confidence: 1,
      source: "remember",
      iteration: 1,
    });
    await store.memories.updateContent(memory.id, `now ${SECRETS.entropy}`);

    expect(leaks(await dumpAll(store))).toEqual([]);
    const cp = await store.checkpoints.latest(s.id);
    expect(cp?.context).toEqual(context);
    expect((cp?.state as { stubbed: string[] }).stubbed).toEqual(stubbed);
    expect((await store.checklist.list(s.id))[0]).toMatchObject({ id: "1", description: "rotate [REDACTED:github-token]" });
    expect((await store.sessions.get(s.id))?.config).toMatchObject({
      databaseUrl: "postgres://app:[REDACTED:url-password]@db.example:5432/app",
    });
  });

  it("stores no secret in the agent's question (ask_user) or in its answer", async () => {
    const s = await store.sessions.create(secretSession({ task: "t", title: "t", config: {}, gateBaseline: null }));
    const question = {
      text: `Should I push with ${SECRETS.anthropic} or ${SECRETS.github}?`,
      askedAt: new Date().toISOString(),
      iteration: 3,
      answer: null,
      answeredAt: null,
      answeredBy: null,
    };
    await store.sessions.update(s.id, { status: "waiting", question });
    expect(await store.sessions.answer(s.id, `neither: use ${SECRETS.aws} with password=${SECRETS.dbPassword}`, "terminal")).toBe(
      "answered",
    );
    expect(leaks(await dumpAll(store))).toEqual([]);
    expect((await store.sessions.get(s.id))?.question).toMatchObject({
      text: "Should I push with [REDACTED:anthropic-key] or [REDACTED:github-token]?",
      iteration: 3,
      answer: expect.stringMatching(/^neither: use \[REDACTED:aws-access-key\] with password=\[REDACTED:password\]$/) as unknown,
      answeredBy: "terminal",
    });
  });

  it("redacts model text streamed in fragments as one text, across flushes", async () => {
    const s = await store.sessions.create(secretSession({ task: "t", title: "t", config: {}, gateBaseline: null }));
    const persister = createEventPersister(store, s.id, { flushMs: 60_000 });
    const text = `Thinking.\n${TEXT}Done.\n`;
    for (let i = 0; i < text.length; i += 3) {
      persister.sink({ v: 1, sessionId: s.id, iteration: 1, ts: 0, type: "model.text", data: { text: text.slice(i, i + 3) } });
      await persister.flush(); // one stored event per flush, as when the model streams slowly
    }
    persister.sink({ v: 1, sessionId: s.id, iteration: 1, ts: 0, type: "iteration.end", data: { hat: "creator", durationMs: 1 } });
    await persister.close();
    const events = await store.events.after(s.id, 0);
    const joined = events
      .filter((e) => e.type === "model.text")
      .map((e) => (e.payload as { text: string }).text)
      .join("");
    expect(leaks(joined)).toEqual([]);
    expect(joined).toContain("[REDACTED:anthropic-key]");
    expect(joined.startsWith("Thinking.\n")).toBe(true);
    expect(joined.endsWith("Done.\n")).toBe(true);
    expect(events.at(-1)?.type).toBe("iteration.end");
  });
});
