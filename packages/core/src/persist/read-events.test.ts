import { describe, expect, it } from "vitest";
import { EVENT_VERSION, LOOP_EVENT_TYPES, type EventData, type LoopEvent, type LoopEventType } from "../events.js";
import { Emitter } from "../emitter.js";
import type { GateCheckSummary } from "../shapes.js";
import { memoryStore } from "../store/memory-store.js";
import { runFixture, type Turn } from "../test-support/loop-fixture.js";
import { createEventPersister } from "./event-persister.js";
import { followEvents } from "./follow-events.js";
import { eventReader, parseLoopEvent, parseStoredEvent } from "./read-events.js";

const check: GateCheckSummary = {
  name: "test",
  command: "npm test",
  exitCode: 0,
  passed: true,
  acceptable: true,
  timedOut: false,
  durationMs: 5,
  newFailures: [],
};
const usage = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };

/** One payload of every event type: a type added to the union without a sample fails to compile. */
const samples: { [K in LoopEventType]: EventData<K> } = {
  "session.start": {
    task: "t",
    hat: "planner",
    branch: "b",
    worktree: "/w",
    model: "m",
    resumed: false,
    maxIterations: null,
    runner: "worker w1 (host:1)",
  },
  "iteration.start": { hat: "planner" },
  "iteration.end": { hat: "planner", durationMs: 3 },
  "context.gauge": { tokens: 1, window: 2, percent: 50, zone: "green" },
  "context.compacted": { strategy: "prune", level: 1, tokensBefore: 10, tokensAfter: 5, removed: 2 },
  "context.recalled": { query: "q", hits: 1, tokens: 9 },
  "model.request": { model: "m", messages: 3, contextTokens: 100 },
  "model.text": { text: "hello" },
  "model.retry": { attempt: 1, waitMs: 100, status: 529, reason: "overloaded" },
  "model.notice": { message: "deprecated" },
  "model.refusal": { category: null, explanation: null, consecutive: 1, action: "retry" },
  "model.truncated": { tools: ["write_file"], maxTokens: 8, retryWith: null },
  "model.usage_limit": {
    resetAt: 1_000,
    action: "wait",
    message: "usage limit reached; waiting until 03:00 (4h12m), then going on",
    reason: "usage limit",
  },
  "context.overflow": { promptTokens: null, maxTokens: 5, attempt: 1 },
  "model.response": { stopReason: "end_turn", usage, costUsd: 0.1, toolCalls: 0, textChars: 5 },
  "tool.call": { id: "t1", name: "read_file", summary: "a.ts" },
  "tool.result": { id: "t1", name: "read_file", isError: false, chars: 3, durationMs: 1, preview: "abc" },
  "signal.scratchpad": { chars: 2, content: "hi" },
  "signal.checklist": { id: "1", status: "failed", reason: "no", known: true },
  "signal.memory": { memoryType: "fact", text: "x" },
  "signal.event": { topic: "plan.complete", payload: { n: 1 } },
  "signal.acknowledge": {},
  "signal.malformed": { signal: "CHECKLIST_DONE", line: "CHECKLIST_DONE:", reason: "no id" },
  "checklist.set": { items: [{ id: "1", description: "d", status: "in_progress" }] },
  "hat.change": { from: "planner", to: "creator", topic: "plan.complete" },
  "route.rejected": { hat: "critic", topic: "x", reason: "not published" },
  "gate.result": { passed: true, checks: [check] },
  "completion.refused": { reason: "open items" },
  "grader.start": { round: 1, criteria: 2, model: "claude-haiku-4-5" },
  "grader.verdict": {
    round: 1,
    satisfied: false,
    verdicts: [{ criterion: "the guide names every flag", met: false, reason: "--legacy is missing" }],
    revisions: 1,
    maxRevisions: 3,
    action: "revise",
    model: "claude-haiku-4-5",
    usage,
    costUsd: 0.01,
  },
  "question.answered": { question: "Postgres or SQLite?", answer: "Postgres", answeredBy: "cli@host" },
  "health.warning": { kind: "repetition", level: "hint", message: "m" },
  "budget.exceeded": { budget: "cost", limit: 1, value: 2 },
  "usage.total": { usage, costUsd: 1, contextTokens: 2, contextWindow: 3 },
  "checkpoint.saved": { seq: 1, reason: "start", commit: null, contextTokens: 4 },
  steer: { text: "go" },
  "session.status": { status: "paused", reason: null },
  "session.end": { status: "completed", reason: "done", iterations: 2, costUsd: 0.5 },
  error: { message: "boom", fatal: false },
  "session.lease-lost": { message: "taken" },
  "database.outage": { state: "reachable", location: "pg", message: "back" },
  "hook.failed": { hook: "onComplete", target: "webhook https://example.com", attempts: 3, error: "HTTP 500" },
  "pr.result": {
    opened: false,
    url: null,
    compareUrl: "https://github.com/a/b/compare/main...hatloop/1",
    branch: "hatloop/1",
    base: "main",
    remote: "origin",
    pushed: true,
    draft: false,
    reason: "gh is not installed",
  },
};

function emitted(): LoopEvent[] {
  const events: LoopEvent[] = [];
  const emitter = new Emitter("s", [(e) => events.push(e)], () => 1_000);
  for (const type of LOOP_EVENT_TYPES) emitter.emit(type, samples[type]);
  return events;
}

const stored = (over: Partial<Parameters<typeof parseStoredEvent>[0]>) => ({
  id: 1,
  sessionId: "s",
  iteration: 2,
  type: "tool.call",
  payload: { id: "t1", name: "read_file", summary: "a.ts" },
  version: EVENT_VERSION as number | null,
  createdAt: new Date(5_000),
  ...over,
});

describe("the event contract at run time", () => {
  it("every event type, as emitted, parses back unchanged through JSON and through the store", async () => {
    const events = emitted();
    expect(events.map((e) => e.type)).toEqual(LOOP_EVENT_TYPES);
    for (const event of events) {
      expect(event.v).toBe(EVENT_VERSION);
      expect(parseLoopEvent(JSON.parse(JSON.stringify(event)))).toEqual({ ok: true, event });
    }
    const store = memoryStore();
    const persister = createEventPersister(store, "s", { flushMs: 60_000 });
    events.forEach(persister.sink);
    await persister.close();
    const rows = await store.events.after("s", 0, 1000);
    expect(rows.every((r) => r.version === EVENT_VERSION)).toBe(true);
    const reports: string[] = [];
    const back = eventReader((line) => reports.push(line)).read(rows);
    expect(reports).toEqual([]);
    expect(back.map(({ ts: _ts, ...rest }) => rest)).toEqual(events.map(({ ts: _ts, ...rest }) => rest));
  });

  it("model text stored through the redacting store keeps its version, held-back tail included", async () => {
    const store = memoryStore(); // redacting, as openStore's
    const persister = createEventPersister(store, "s", { flushMs: 60_000 });
    const emitter = new Emitter("s", [persister.sink], () => 1_000);
    for (const text of ["Thinking about ", "the fix", "."]) {
      emitter.emit("model.text", { text });
      await persister.flush();
    }
    await persister.close();
    await store.close();
    const rows = await store.events.after("s", 0, 1000);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.map((r) => r.version)).toEqual(rows.map(() => EVENT_VERSION));
    expect(
      eventReader(() => {})
        .read(rows)
        .map((e) => (e.type === "model.text" ? e.data.text : ""))
        .join(""),
    ).toBe("Thinking about the fix.");
  });

  it("every event a whole loop emits parses back unchanged", async () => {
    const turns: Turn[] = [
      {
        text: "CHECKLIST_ADD:1:fix it\nSCRATCHPAD:## Plan\n1. [ ] fix\nMEMORY:fact:the tests use vitest\nBOGUS_SIGNAL",
        tools: [{ name: "read_file", input: { path: "a.ts" } }],
      },
      { text: "EVENT:plan.complete done planning" },
      { tools: [{ name: "write_file", input: { path: "a.ts", content: "x" } }] },
      { text: "CHECKLIST_DONE:1\nEVENT:implementation.done" },
      { tools: [{ name: "run_command", input: { command: "npm test" } }] },
      { text: "EVENT:review.approved" },
      { tools: [{ name: "task_complete", input: { summary: "fixed" } }] },
    ];
    const run = await runFixture({ turns });
    expect(new Set(run.events.map((e) => e.type)).size).toBeGreaterThan(12);
    for (const event of run.events) expect(parseLoopEvent(JSON.parse(JSON.stringify(event)))).toEqual({ ok: true, event });
  });

  it("reads events stored before versioning (no version) as version 1, and JSON lines without v", () => {
    expect(parseStoredEvent(stored({ version: null }))).toEqual({
      ok: true,
      event: { v: 1, sessionId: "s", iteration: 2, ts: 5_000, type: "tool.call", data: { id: "t1", name: "read_file", summary: "a.ts" } },
    });
    const { v: _v, ...legacy } = emitted()[0]!;
    expect(parseLoopEvent(legacy)).toMatchObject({ ok: true, event: { v: 1, type: "session.start" } });
  });

  it("skips events of a newer schema version, saying once that a newer hatloop wrote them", () => {
    expect(parseStoredEvent(stored({ version: 2 }))).toMatchObject({ ok: false, newer: true });
    expect(parseLoopEvent({ ...emitted()[0], v: "one" })).toMatchObject({
      ok: false,
      newer: false,
      problem: 'unknown event schema version "one"',
    });
    const reports: string[] = [];
    const reader = eventReader((line) => reports.push(line));
    const read = reader.read([stored({ id: 1, version: 2 }), stored({ id: 2 }), stored({ id: 3, version: 2, type: "model.text" })]);
    expect(read.map((e) => e.type)).toEqual(["tool.call"]);
    expect(reader.skipped).toBe(2);
    expect(reports).toEqual([
      'skipped stored event #1 "tool.call" (iteration 2): written by a newer hatloop (event schema version 2; this one reads version 1); upgrade hatloop to see such events; later ones are skipped without a note',
    ]);
  });

  it("skips a malformed or unknown stored event with one clear line per kind, and reads on", () => {
    const reports: string[] = [];
    const reader = eventReader((line) => reports.push(line));
    const rows = [
      stored({ id: 1, payload: { id: 7, name: "read_file", summary: "a.ts" } }),
      stored({ id: 2 }),
      stored({ id: 3, payload: null }),
      stored({ id: 4, type: "telepathy", payload: {} }),
      stored({ id: 5, type: "iteration.start", payload: { hat: "planner" } }),
    ];
    expect(reader.read(rows).map((e) => e.type)).toEqual(["tool.call", "iteration.start"]);
    expect(reader.skipped).toBe(3);
    expect(reports).toEqual([
      'skipped stored event #1 "tool.call" (iteration 2): data.id: Invalid input: expected string, received number; later unreadable "tool.call" events are skipped without a note',
      'skipped stored event #4 "telepathy" (iteration 2): unknown event type "telepathy"; later unreadable "telepathy" events are skipped without a note',
    ]);
  });

  it("a follower skips an unreadable stored event and delivers the rest", async () => {
    const store = memoryStore();
    await store.events.append("s", [
      { iteration: 1, type: "iteration.start", payload: { hat: "planner" }, version: 1 },
      { iteration: 1, type: "tool.result", payload: { id: "t" }, version: 1 },
      { iteration: 1, type: "iteration.end", payload: { hat: "planner", durationMs: 1 } },
    ]);
    const reports: string[] = [];
    const seen: string[] = [];
    const stop = new AbortController();
    const following = followEvents(
      store,
      "s",
      (events) => {
        seen.push(...events.map((e) => e.type));
        stop.abort();
      },
      { intervalMs: 5, signal: stop.signal, reader: eventReader((line) => reports.push(line)) },
    );
    await following;
    expect(seen).toEqual(["iteration.start", "iteration.end"]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^skipped stored event #2 "tool.result" \(iteration 1\): data\.name: /);
  });
});
