import { redactSecrets } from "@hatloop/context";
import { redactMessage, redactValue } from "./redact-message.js";
import type { NewCheckpoint, NewEvent, NewSession, SessionPatch, Store } from "../store/port.js";
import { StreamRedactor } from "./stream-redactor.js";

// Secrets are redacted once, where anything is persisted: every text a store write carries (session
// fields and config, messages, events, checkpoints with their loop state and handoff, checklist,
// scratchpad, the agent's question and its answer, memories, the grader's verdicts) passes through here, whatever part of
// hatloop wrote it, and nowhere else: the loop keeps what the store gives back (messages.append
// returns the messages as stored). What is not text stays as it is: ids, seqs, the live context's
// references into the messages, numbers.

/** Session fields that hold text from the task, the model, tools or the configuration. */
const SESSION_TEXT = ["task", "title", "scratchpad", "lastError", "stopReason", "question", "config", "gateBaseline"] as const;
/** Checkpoint fields that are references (message seqs, tool-call ids) or numbers, never text. */
const CHECKPOINT_REFERENCES = new Set(["context", "contextTokens", "usage", "gitCommit", "iteration", "reason", "hat"]);
/** Loop-state keys that are references or numbers: stubbed tool-call ids, the usage anchor, the next seq, the guard, checkpoint sizes. */
const STATE_REFERENCES = new Set(["stubbed", "anchor", "nextSeq", "version", "guard", "checkpointTokens"]);

export function redactingStore<S extends Store>(store: S): S {
  /** Per session: the model text of one iteration being stored as a stream of events. */
  const streams = new Map<string, TextStream>();

  async function appendEvents(sessionId: string, batch: NewEvent[], endOfStream = false): Promise<void> {
    const { events, stream } = redactEvents(streams.get(sessionId) ?? null, batch, endOfStream);
    if (events.length) await store.events.append(sessionId, events);
    // Only once written: a batch that failed is sent again by its writer and must redact the same.
    if (stream) streams.set(sessionId, stream);
    else streams.delete(sessionId);
  }

  const redacting: Store = {
    ...store,
    sessions: {
      ...store.sessions,
      create: (session) => store.sessions.create(redactSessionText(session)),
      update: (id, patch) => store.sessions.update(id, redactSessionText(patch)),
      answer: (id, answer, answeredBy) => store.sessions.answer(id, redactSecrets(answer), redactSecrets(answeredBy)),
    },
    messages: {
      ...store.messages,
      append: (id, batch) =>
        store.messages.append(
          id,
          batch.map((m) => ({ ...m, message: redactMessage(m.message) })),
        ),
    },
    checkpoints: { ...store.checkpoints, append: (id, checkpoint) => store.checkpoints.append(id, redactCheckpoint(checkpoint)) },
    events: { ...store.events, append: appendEvents },
    checklist: {
      ...store.checklist,
      upsert: (id, items) =>
        store.checklist.upsert(
          id,
          items.map((i) => ({ ...i, description: redactSecrets(i.description) })),
        ),
      setStatus: (id, itemId, status, reason) =>
        store.checklist.setStatus(id, itemId, status, reason === null ? null : redactSecrets(reason)),
    },
    memories: {
      ...store.memories,
      add: (memory) =>
        store.memories.add({
          ...memory,
          content: redactSecrets(memory.content),
          key: memory.key === null ? null : redactSecrets(memory.key),
        }),
      updateContent: (id, content, confidence) => store.memories.updateContent(id, redactSecrets(content), confidence),
    },
    grades: {
      ...store.grades,
      append: (id, grade) =>
        store.grades.append(id, {
          ...grade,
          verdicts: grade.verdicts.map((v) => ({ ...v, criterion: redactSecrets(v.criterion), reason: redactSecrets(v.reason) })),
        }),
    },
    fenced: (sessionId, epoch) => redactingStore(store.fenced(sessionId, epoch)),
    async close() {
      // Model text still held back (a run that ended without another event) is written before closing.
      for (const sessionId of streams.keys()) await appendEvents(sessionId, [], true).catch(() => {});
      await store.close();
    },
  };
  return redacting as S;
}

function redactSessionText<T extends NewSession | SessionPatch>(session: T): T {
  const out: Record<string, unknown> = { ...session };
  for (const key of SESSION_TEXT) if (out[key] !== undefined && out[key] !== null) out[key] = redactValue(out[key]);
  return out as T;
}

function redactCheckpoint(checkpoint: NewCheckpoint): NewCheckpoint {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(checkpoint)) {
    out[key] = CHECKPOINT_REFERENCES.has(key) ? value : key === "state" ? redactState(value) : redactValue(value);
  }
  return out as unknown as NewCheckpoint;
}

function redactState(state: unknown): unknown {
  if (typeof state !== "object" || state === null || Array.isArray(state)) return redactValue(state);
  return Object.fromEntries(Object.entries(state).map(([key, value]) => [key, STATE_REFERENCES.has(key) ? value : redactValue(value)]));
}

/**
 * A batch of events with every payload redacted; consecutive `model.text` events of one iteration
 * are redacted as one stream, the tail they hold back written before the next other event.
 */
/** Model text being stored as a stream: its iteration, the schema version of its events, the held-back tail. */
interface TextStream {
  iteration: number;
  version?: number;
  held: string;
}

function redactEvents(
  start: TextStream | null,
  batch: NewEvent[],
  endOfStream: boolean,
): { events: NewEvent[]; stream: TextStream | null } {
  const events: NewEvent[] = [];
  let stream = start;
  let redactor = new StreamRedactor(stream?.held ?? "");
  const endStream = () => {
    const tail = stream ? redactor.end() : "";
    if (stream && tail)
      events.push({
        iteration: stream.iteration,
        type: "model.text",
        payload: { text: tail },
        ...(stream.version === undefined ? {} : { version: stream.version }),
      });
    stream = null;
    redactor = new StreamRedactor();
  };
  for (const event of batch) {
    if (event.type !== "model.text") {
      endStream();
      events.push({ ...event, payload: redactValue(event.payload) });
      continue;
    }
    if (stream && stream.iteration !== event.iteration) endStream();
    stream = { iteration: event.iteration, held: "", ...(event.version === undefined ? {} : { version: event.version }) };
    const text = redactor.push((event.payload as { text: string }).text);
    if (text) events.push({ ...event, payload: { ...(event.payload as object), text } });
  }
  if (endOfStream) endStream();
  return { events, stream: stream && { ...stream, held: redactor.held } };
}
