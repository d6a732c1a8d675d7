import { describeEvent, type LoopEvent } from "@hatloop/core";
import type { ActivityEntry, Tone, TuiState } from "./types.js";

// Applies one loop event to the TUI state, in place and in O(1): the store owns the state and the
// view re-renders on a throttled tick, so copying arrays per event would only cost time.

export const MAX_ENTRIES = 1_000;
const MAX_STREAMING = 4_000;
const MAX_TEXT_ENTRY = 1_500;

export function applyEvent(state: TuiState, event: LoopEvent, now = Date.now(), maxEntries = MAX_ENTRIES): void {
  state.events++;
  switch (event.type) {
    case "model.text": {
      const current = state.streaming?.iteration === event.iteration ? state.streaming.text : "";
      const text = current + event.data.text;
      state.streaming = { iteration: event.iteration, text: text.length > MAX_STREAMING ? text.slice(-MAX_STREAMING) : text };
      return;
    }
    case "model.response":
    case "model.retry":
      settleStreaming(state, event.type === "model.retry", maxEntries);
      if (event.type === "model.retry") add(state, event, "warn", maxEntries);
      return;
    case "session.start":
      Object.assign(state, { task: event.data.task, hat: event.data.hat, branch: event.data.branch, model: event.data.model, status: "running", statusReason: null, runningSince: now });
      state.budgets.maxIterations = event.data.maxIterations;
      break;
    case "iteration.start":
      state.iteration = event.iteration;
      state.hat = event.data.hat;
      add(state, event, "muted", maxEntries, `-- iteration ${event.iteration} · ${event.data.hat} --`);
      return;
    case "hat.change":
      state.hat = event.data.to;
      state.hats.push({ hat: event.data.to, iteration: event.iteration });
      if (state.hats.length > 50) state.hats.shift();
      break;
    case "signal.scratchpad":
      state.scratchpad = event.data.content;
      break;
    case "checklist.set":
      state.checklist = event.data.items.map((i) => ({ ...i, status: i.status as TuiState["checklist"][number]["status"], reason: state.checklist.find((c) => c.id === i.id)?.reason ?? null }));
      break;
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
    case "session.status":
      if (event.data.status === "running") Object.assign(state, { status: "running", statusReason: null, runningSince: state.runningSince ?? now });
      else stopClock(state, event.data.status, event.data.reason, now);
      break;
    case "session.end":
      stopClock(state, event.data.status, event.data.reason, now);
      break;
    case "iteration.end":
    case "model.request":
    case "signal.event":
    case "signal.acknowledge":
      return;
  }
  add(state, event, toneOf(event), maxEntries);
}

function stopClock(state: TuiState, status: TuiState["status"], reason: string | null, now: number): void {
  if (state.runningSince !== null) state.runtimeMs += now - state.runningSince;
  Object.assign(state, { status, statusReason: reason, runningSince: null });
}

/** The streamed text becomes an entry when the response ends; a retry voids it. */
function settleStreaming(state: TuiState, voided: boolean, maxEntries: number): void {
  const streaming = state.streaming;
  state.streaming = null;
  if (!streaming || voided || !streaming.text.trim()) return;
  const text = streaming.text.trim();
  push(state, { id: state.nextId++, iteration: streaming.iteration, tone: "text", text: text.length > MAX_TEXT_ENTRY ? `${text.slice(0, MAX_TEXT_ENTRY)}…` : text }, maxEntries);
}

function add(state: TuiState, event: LoopEvent, tone: Tone, maxEntries: number, text?: string): void {
  const line = text ?? describeEvent(event)?.trim();
  if (line) push(state, { id: state.nextId++, iteration: event.iteration, tone, text: line }, maxEntries);
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
      return "you";
    case "gate.result":
      return event.data.passed ? "good" : "error";
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
      return "warn";
    case "session.end":
      return event.data.status === "completed" ? "good" : "warn";
    default:
      return "muted";
  }
}
