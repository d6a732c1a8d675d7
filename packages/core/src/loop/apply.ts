import type { HandoffCarry } from "@hatloop/context";
import type { Hat } from "../hats/hat.js";
import type { ToolSpec } from "../ports/model.js";
import type { ChecklistItem, Usage } from "../store/port.js";
import type { Compaction, LiveEntry } from "./context-hook.js";
import type { HealthNotice } from "./health.js";
import { addUsage, promptTokens, type LoopState } from "./state.js";

// The one place the loop state changes. Every step of an iteration returns what it did as one of
// these changes (or the iteration turns its outcome into one), and `apply` writes it: a reader who
// wants to know who sets a field reads one switch. Store writes and events stay with the steps;
// this module only moves the in-memory state from one iteration to the next.

/** The person's messages kept for compactions and the handoff (a compaction keeps them all, the oldest shortened: personWords). */
export const MAX_INSTRUCTIONS = 200;
/** Hat changes kept, so checkpoints stay the same size however long the session runs. */
const MAX_HAT_HISTORY = 50;

export type Change =
  /** A new iteration starts: the model is asked. */
  | { type: "iteration-started" }
  /** The model call failed for good: the iteration did not happen and is redone on resume. */
  | { type: "iteration-abandoned" }
  /** An answer or a compaction's summary calls were paid for (kept or not). */
  | { type: "paid"; usage: Usage; costUsd: number }
  /** The API said the request did not fit: its real size, and the model's real window when smaller. */
  | { type: "overflowed"; promptTokens: number | null; contextWindow: number | null }
  /** The current hat's system prompt and tools, sent with the next request. */
  | { type: "request-built"; system: string[]; tools: ToolSpec[] }
  /** The context hook compacted the live context (its new entries already stored). */
  | { type: "compacted"; compaction: Compaction; scratchpad: string }
  /** Messages were stored with the next seqs. */
  | { type: "stored"; count: number }
  /** A message joined the live context. */
  | { type: "appended"; entry: LiveEntry }
  /** The model's answer joined the live context; the API's usage measured the prompt it answered. */
  | { type: "answered"; entry: LiveEntry; usage: Usage }
  /** A refused answer was archived; it measured the whole live context. Withheld results are stubbed. */
  | { type: "refused"; usage: Usage; withheld: Array<{ index: number; entry: LiveEntry; ids: string[] }> }
  /** Tool calls that ran: a signature not seen before counts as progress. */
  | { type: "called"; signatures: string[] }
  /** The scratchpad and checklist after the response's signals (null: unchanged). */
  | { type: "signalled"; scratchpad: string | null; checklist: ChecklistItem[] | null }
  /** An event routed the work to another hat. */
  | { type: "routed"; to: Hat; topic: string }
  /** Health notices: hints are told to the model, a stop ends the run before the next iteration. */
  | { type: "health-noticed"; notices: HealthNotice[] }
  /** Notes for the next user message (feedback on signals, routing, output limits, compaction...). */
  | { type: "noted"; notes: string[] }
  /** The closing user message joined the live context, with the notes it carried and the steering. */
  | { type: "turn-closed"; entry: LiveEntry; steering: string[]; contextTokens: number | null }
  /** A checkpoint's handoff: the running decisions, open items and last failure carried on. */
  | { type: "carried"; carry: HandoffCarry }
  /** Steering that arrived between iterations joined the live context as the iteration started. */
  | { type: "steered"; entry: LiveEntry; steering: string[] };

export function apply(state: LoopState, change: Change): void {
  switch (change.type) {
    case "iteration-started":
      state.iteration++;
      return;
    case "iteration-abandoned":
      state.iteration--;
      return;
    case "paid":
      state.usage = addUsage(state.usage, change.usage);
      state.costUsd += change.costUsd;
      return;
    case "overflowed":
      if (change.contextWindow !== null && change.contextWindow < state.session.contextWindow)
        state.session = { ...state.session, contextWindow: change.contextWindow };
      if (change.promptTokens !== null) state.contextTokens = change.promptTokens;
      return;
    case "request-built":
      state.request = { system: change.system, tools: change.tools };
      return;
    case "compacted": {
      const { compaction } = change;
      state.live = compaction.live;
      state.stubbed = compaction.stubbed;
      state.contextTokens = compaction.tokensAfter;
      state.anchor = null; // the old anchor measured a different prefix
      state.compactions++;
      if (compaction.decisions) state.decisions = compaction.decisions;
      if (compaction.lastFailure !== undefined) state.lastFailure = compaction.lastFailure;
      if (compaction.cost) apply(state, { type: "paid", ...compaction.cost });
      state.scratchpad = change.scratchpad;
      state.notes.push(
        `Context compacted (${compaction.strategy}): about ${compaction.tokensBefore} -> ${compaction.tokensAfter} tokens. Removed tool results are stubs naming their archive id; older turns are summarised under Compacted History. Everything is stored: the recall tool fetches any of it.`,
      );
      return;
    }
    case "stored":
      state.nextSeq += change.count;
      return;
    case "appended":
      state.live.push(change.entry);
      return;
    case "answered":
      state.live.push(change.entry);
      state.anchor = { usage: change.usage, entries: state.live.length - 1 };
      // What the API reported, until a context hook measures more precisely at the end of the turn.
      state.contextTokens = contextTokensAfter(change.usage);
      return;
    case "refused":
      for (const { index, entry, ids } of change.withheld) {
        state.live[index] = entry;
        for (const id of ids) state.stubbed.add(id);
      }
      state.anchor = { usage: change.usage, entries: state.live.length };
      return;
    case "called":
      for (const signature of change.signatures) state.seenCalls.add(signature);
      return;
    case "signalled":
      if (change.scratchpad !== null) state.scratchpad = change.scratchpad;
      if (change.checklist !== null) state.checklist = change.checklist;
      return;
    case "routed":
      state.hatHistory = [...state.hatHistory, { hat: change.to.name, iteration: state.iteration, topic: change.topic }].slice(
        -MAX_HAT_HISTORY,
      );
      state.hat = change.to;
      return;
    case "health-noticed":
      for (const notice of change.notices) {
        if (notice.level === "hint")
          state.notes.push(
            `Loop health: ${notice.message}. Step back: re-read the error, check your assumptions, try a different approach.`,
          );
        if (notice.level === "stop") state.healthStop ??= `${notice.kind} (${notice.message})`;
      }
      return;
    case "noted":
      state.notes.push(...change.notes);
      return;
    case "turn-closed":
      state.live.push(change.entry);
      state.notes = [];
      if (change.steering.length) state.instructions = [...state.instructions, ...change.steering].slice(-MAX_INSTRUCTIONS);
      if (change.contextTokens !== null) state.contextTokens = change.contextTokens;
      return;
    case "steered":
      state.live.push(change.entry);
      state.instructions = [...state.instructions, ...change.steering].slice(-MAX_INSTRUCTIONS);
      return;
    case "carried":
      state.decisions = change.carry.decisions;
      state.openItems = change.carry.openItems;
      state.lastFailure = change.carry.lastFailure;
      return;
  }
}

/**
 * The next request's size when only the API's numbers are known: the prompt it answered plus the
 * answer. (A context hook refines it at the end of the turn, anchored on the same prompt size.)
 */
function contextTokensAfter(usage: Usage): number {
  return promptTokens(usage) + usage.outputTokens;
}
