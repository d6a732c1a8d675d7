import { describeEvent, formatCost, formatDuration, formatTokens, type LoopEvent, type Usage } from "@hatloop/core";
import { detailOf, textDetail } from "./entry-detail.js";
import { zoneOf } from "./initial.js";
import { withoutSignals } from "./signals.js";
import type { ActivityEntry, Tone, TuiState } from "./types.js";

// Applies one loop event to the TUI state, in place and in O(1): the store owns the state and the
// view re-renders on a throttled tick, so copying arrays per event would only cost time.

export const MAX_ENTRIES = 1_000;
/** The streamed text kept (its end, when longer): enough for most responses to show from their start. */
const MAX_STREAMING = 16_000;
const MAX_TEXT_ENTRY = 1_500;
const MAX_CHECKPOINTS = 500;

export function applyEvent(state: TuiState, event: LoopEvent, now = Date.now(), maxEntries = MAX_ENTRIES): void {
  state.events++;
  trackDoing(state, event);
  switch (event.type) {
    case "model.text": {
      const current = state.streaming?.iteration === event.iteration ? state.streaming.text : "";
      const text = current + event.data.text;
      const cut = text.length > MAX_STREAMING || (current !== "" && Boolean(state.streaming?.cut));
      const held = state.streaming?.held;
      state.streaming = {
        iteration: event.iteration,
        text: text.length > MAX_STREAMING ? text.slice(-MAX_STREAMING) : text,
        cut,
        ...(held ? { held } : {}),
      };
      return;
    }
    case "model.response":
    case "model.retry":
      settleStreaming(state, event.type === "model.retry", maxEntries);
      if (event.type === "model.response") {
        // The totals (usage.total) come only when an iteration ends: until then, a long first
        // iteration showed `tokens in 0` and $0.00 beside its own header's tokens and cost.
        state.usage = addUsage(state.usage, event.data.usage);
        state.costUsd += event.data.costUsd;
      }
      if (event.type === "model.response" && state.current) {
        const u = event.data.usage;
        state.current.tokens += u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
        state.current.costUsd += event.data.costUsd;
        state.current.entry.text = iterationHeader(event.iteration, state.current, null);
      }
      if (event.type === "model.retry") add(state, event, "warn", maxEntries);
      return;
    case "session.start":
      Object.assign(state, {
        task: event.data.task,
        hat: event.data.hat,
        branch: event.data.branch,
        model: event.data.model,
        status: "running",
        statusReason: null,
        runningSince: now,
      });
      state.budgets.maxIterations = event.data.maxIterations;
      // The timeline starts with the session's first hat and goes on across resumes.
      if (state.hats.length === 0) state.hats.push({ hat: event.data.hat, iteration: event.iteration });
      break;
    case "iteration.start": {
      state.iteration = event.iteration;
      state.hat = event.data.hat;
      // Iterations are the unit: a header per iteration, completed with its duration, tokens and cost.
      const entry: ActivityEntry = { id: state.nextId++, iteration: event.iteration, tone: "iteration", text: "" };
      state.current = { entry, hat: event.data.hat, tokens: 0, costUsd: 0 };
      entry.text = iterationHeader(event.iteration, state.current, null);
      push(state, entry, maxEntries);
      return;
    }
    case "hat.change":
      state.hat = event.data.to;
      state.hats.push({ hat: event.data.to, iteration: event.iteration });
      if (state.hats.length > 50) state.hats.shift();
      break;
    case "signal.scratchpad":
      state.scratchpad = event.data.content;
      break;
    case "checklist.set": {
      // The first list shows whole; later ones show only what changed (an item added, renamed or dropped).
      const before = new Map(state.checklist.map((c) => [c.id, c]));
      const first = state.checklist.length === 0;
      state.checklist = event.data.items.map((i) => ({ ...i, status: i.status, reason: before.get(i.id)?.reason ?? null }));
      if (first) break;
      const changed = event.data.items
        .filter((i) => before.get(i.id)?.description !== i.description)
        .map((i) => `+ ${i.id}. ${i.description}`);
      const dropped = [...before.keys()].filter((id) => !event.data.items.some((i) => i.id === id)).map((id) => `- ${id}`);
      if (changed.length || dropped.length) add(state, event, "muted", maxEntries, `   checklist ${[...changed, ...dropped].join("; ")}`);
      return;
    }
    case "signal.checklist": {
      const item = state.checklist.find((i) => i.id === event.data.id);
      if (item) Object.assign(item, { status: event.data.status, reason: event.data.reason });
      break;
    }
    case "usage.total":
      state.usage = event.data.usage;
      state.costUsd = event.data.costUsd;
      state.context = { ...state.context, tokens: event.data.contextTokens, window: event.data.contextWindow };
      return;
    case "context.gauge": {
      const changed = event.data.zone !== state.context.zone;
      state.context = { tokens: event.data.tokens, window: event.data.window, percent: event.data.percent, zone: event.data.zone };
      if (changed) add(state, event, event.data.zone === "green" || event.data.zone === "gauge" ? "muted" : "warn", maxEntries);
      return;
    }
    case "context.compacted": {
      // The gauge follows a compaction at once (the next gauge event comes only with the next turn).
      const percent = state.context.window ? Math.floor((event.data.tokensAfter * 100) / state.context.window) : 0;
      state.context = { ...state.context, tokens: event.data.tokensAfter, percent, zone: zoneOf(percent) };
      break;
    }
    case "session.status":
      if (event.data.status === "running")
        Object.assign(state, { status: "running", statusReason: null, runningSince: state.runningSince ?? now });
      // Held by the user or waiting for their answer, the run's clock goes on (the runtime budget and
      // `hatloop show` count it too).
      else if ((event.data.status === "paused" && event.data.reason === "paused by the user") || event.data.status === "waiting")
        Object.assign(state, { status: event.data.status, statusReason: event.data.reason, runningSince: state.runningSince ?? now });
      else stopClock(state, event.data.status, event.data.reason, now);
      break;
    case "session.end":
      stopClock(state, event.data.status, event.data.reason, now);
      break;
    case "iteration.end":
      if (state.current) state.current.entry.text = iterationHeader(event.iteration, state.current, event.data.durationMs);
      state.current = null;
      return;
    case "checkpoint.saved":
      // Files changed by the run only: the start's commit is the base (the user's last commit), and
      // a checkpoint with nothing new to commit has none or the same one again.
      if (event.data.commit && event.data.reason !== "start" && state.checkpoints.at(-1)?.commit !== event.data.commit) {
        state.checkpoints.push({ seq: event.data.seq, commit: event.data.commit, iteration: event.iteration, reason: event.data.reason });
        if (state.checkpoints.length > MAX_CHECKPOINTS) state.checkpoints.shift();
      }
      break;
    case "model.request":
    case "signal.event":
    case "signal.acknowledge":
      return;
  }
  add(state, event, toneOf(event), maxEntries);
}

export function stopClock(state: TuiState, status: TuiState["status"], reason: string | null, now: number): void {
  if (state.runningSince !== null) state.runtimeMs += now - state.runningSince;
  Object.assign(state, { status, statusReason: reason, runningSince: null });
}

/** The streamed text becomes an entry when the response ends; a retry voids it. */
function settleStreaming(state: TuiState, voided: boolean, maxEntries: number): void {
  const streaming = state.streaming;
  state.streaming = null;
  if (!streaming) return;
  const text = voided ? "" : withoutSignals(streaming.text).trim();
  if (text)
    push(
      state,
      {
        id: state.nextId++,
        iteration: streaming.iteration,
        tone: "text",
        text: text.length > MAX_TEXT_ENTRY ? `${text.slice(0, MAX_TEXT_ENTRY)}…` : text,
        detail: textDetail(streaming.iteration, text, streaming.cut),
      },
      maxEntries,
    );
  // The signals read in that text show after it, as what it did.
  for (const entry of streaming.held ?? []) push(state, { id: state.nextId++, ...entry }, maxEntries);
}

function add(state: TuiState, event: LoopEvent, tone: Tone, maxEntries: number, text?: string): void {
  const line = text ?? describeEvent(event)?.trim();
  const detail = detailOf(event);
  if (!line) return;
  const entry = { iteration: event.iteration, tone, text: line, ...(detail ? { detail } : {}) };
  // A signal read from the text being streamed waits for that text, so it shows below it.
  if (state.streaming && (event.type.startsWith("signal.") || event.type === "checklist.set")) (state.streaming.held ??= []).push(entry);
  else push(state, { id: state.nextId++, ...entry }, maxEntries);
}

/** A bounded buffer: the oldest entries go once there are more than `max`. */
export function push(state: TuiState, entry: ActivityEntry, max = MAX_ENTRIES): void {
  state.activity.push(entry);
  if (state.activity.length > max) {
    const extra = state.activity.length - max;
    state.activity.splice(0, extra);
    state.dropped += extra;
  }
}

function toneOf(event: LoopEvent): Tone {
  switch (event.type) {
    case "tool.call":
      return "tool";
    case "tool.result":
      return event.data.isError ? "error" : "good";
    case "hat.change":
      return "hat";
    case "steer":
    case "question.answered":
      return "you";
    case "gate.result":
      return event.data.passed ? "good" : "error";
    case "grader.verdict":
      return event.data.satisfied ? "good" : event.data.action === "stop" ? "error" : "warn";
    case "signal.checklist":
      return event.data.status === "done" ? "good" : "error";
    case "error":
      return event.data.fatal ? "error" : "warn";
    case "signal.malformed":
    case "route.rejected":
    case "completion.refused":
    case "health.warning":
    case "budget.exceeded":
    case "context.compacted":
    case "context.overflow":
    case "model.refusal":
    case "model.truncated":
    case "model.notice":
    case "model.usage_limit":
    case "database.outage":
      return "warn";
    case "session.end":
      return event.data.status === "completed" ? "good" : "warn";
    default:
      return "muted";
  }
}

/** Keeps `doing`: a model call from its request to its response, a tool call from its call to its result. */
function trackDoing(state: TuiState, event: LoopEvent): void {
  switch (event.type) {
    case "model.request":
      state.doing = [{ id: null, what: "waiting for the model", since: event.ts }];
      return;
    case "model.text":
      if (state.doing[0]?.id === null) state.doing[0].what = "the model is writing";
      return;
    case "model.response":
    case "model.retry":
      state.doing = state.doing.filter((d) => d.id !== null);
      return;
    case "tool.call":
      state.doing.push({ id: event.data.id, what: `${event.data.name} ${event.data.summary}`.trim(), since: event.ts });
      return;
    case "tool.result":
      state.doing = state.doing.filter((d) => d.id !== event.data.id);
      return;
    case "iteration.end":
    case "session.end":
    case "session.status":
      if (event.type !== "session.status" || event.data.status !== "running") state.doing = [];
      return;
    default:
      return;
  }
}

/** "-- iteration 3 · creator -- 12s · 41.2k tokens · $0.02" (the duration once it has ended). */
function iterationHeader(iteration: number, current: NonNullable<TuiState["current"]>, durationMs: number | null): string {
  const facts = [
    durationMs === null ? null : formatDuration(durationMs),
    current.tokens ? `${formatTokens(current.tokens)} tokens` : null,
    current.tokens ? formatCost(current.costUsd) : null,
  ].filter(Boolean);
  return `-- iteration ${iteration} · ${current.hat} --${facts.length ? ` ${facts.join(" · ")}` : ""}`;
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}
