import type { HandoffCarry, Message } from "@hatloop/context";
import type { Hat } from "../hats/hat.js";
import type { ModelResponse, ToolSpec } from "../ports/model.js";
import type { Budgets, CheckpointReason, ChecklistItem, NewCheckpoint, NewGrade, Question, Usage } from "../store/port.js";
import type { ChecklistStep } from "./checklist-step.js";
import type { Compaction, Measurement } from "./context-hook.js";
import type { GuardState } from "./guard.js";
import type { HealthNotice, HealthState } from "./health-state.js";
import type { FreshMessage } from "./live-entry.js";
import type { LoopOutcome } from "./outcome.js";

// What a step of the loop did, as data. A step hands its change to the write path (loop/commit.ts),
// which stores what the change says, applies it to the loop state (apply.ts) and emits its events,
// in that order, once. A change that brings messages names them (newMessages); the state receives
// them as stored, with their seqs.

export type Change =
  /** The run took the session: the row says running, here. */
  | { type: "run-started"; resumed: boolean; pid: number; host: string; at: number }
  /** The run ends with this outcome (its checkpoint is already written). */
  | { type: "run-ended"; outcome: LoopOutcome; at: number }
  /** A new iteration starts: the model is asked. */
  | { type: "iteration-started" }
  /** The model call failed for good: the iteration did not happen and is redone on resume. */
  | { type: "iteration-abandoned" }
  /** The budgets were raised from outside (the console, the API) while the run went on. */
  | { type: "budgets-raised"; budgets: Budgets }
  /** The iteration's turn is closed: the row is brought up to date. */
  | { type: "iteration-finished"; startedAt: number; at: number }
  /** An answer or a compaction's summary calls were paid for (kept or not). */
  | { type: "paid"; usage: Usage; costUsd: number }
  /** The API said the request did not fit: its real size, and the model's real window when smaller. */
  | { type: "overflowed"; promptTokens: number | null; maxTokens: number | null; contextWindow: number | null; attempt: number }
  /** The current hat's system prompt and tools, sent with the next request. */
  | { type: "request-built"; system: string[]; tools: ToolSpec[] }
  /** Context management's memory moved on (a measurement or a request without a compaction). */
  | { type: "guard-updated"; guard: GuardState }
  /** The context hook compacted the live context; its new entries are stored with it. */
  | { type: "compacted"; compaction: Compaction; scratchpad: string; guard: GuardState }
  /** A message joined the live context. */
  | { type: "appended"; message: Message; kind: "conversation" | "injected" }
  /** An answer taken out of the conversation (refused, or redone): stored for the record, never sent again. */
  | { type: "archived"; message: Message }
  /** The model's answer joined the live context, with the checklist steps it streamed; the API's usage measured the prompt it answered. */
  | { type: "answered"; response: ModelResponse; steps: ChecklistStep[]; checklist: ChecklistItem[] | null }
  /** A refused answer was archived; it measured the whole live context. Withheld results are replaced by stubs. */
  | { type: "refused"; usage: Usage; withheld: Array<{ index: number; message: Message; ids: string[] }> }
  /** Tool calls that ran: a signature not seen before counts as progress. */
  | { type: "called"; signatures: string[] }
  /** A SCRATCHPAD signal replaced the scratchpad. */
  | { type: "scratchpad-replaced"; scratchpad: string }
  /** A checklist signal, as a step on the checklist. */
  | { type: "checklist-stepped"; step: ChecklistStep }
  /** A MEMORY signal; a duplicate of a known memory is not stored again. */
  | { type: "remembered"; memoryType: string; text: string; duplicate: boolean }
  /** An event routed the work to another hat. */
  | { type: "routed"; to: Hat; from: string; topic: string }
  /** Loop health's counters after a check, and its notices: hints are told to the model, a stop ends the run. */
  | { type: "health-checked"; health: HealthState; notices: HealthNotice[] }
  /** Notes for the next user message (feedback on signals, routing, output limits, compaction...). */
  | { type: "noted"; notes: string[] }
  /** The closing user message joined the live context, with the steering it carried and the measurement after it. */
  | { type: "turn-closed"; message: Message; steering: string[]; measurement: Measurement | null; guard: GuardState | null }
  /** Steering that arrived between iterations joined the live context as the iteration started. */
  | { type: "steered"; message: Message; steering: string[] }
  /** A checkpoint row, its handoff's carry (decisions, open items, last failure) and the retention to apply. */
  | { type: "checkpointed"; reason: CheckpointReason; row: NewCheckpoint; carry: HandoffCarry | null; retain: number }
  /** The grader judged the acceptance criteria (its cost is paid by a `paid` change before). */
  | { type: "graded"; grade: NewGrade; maxRevisions: number }
  /** The agent asked the person a question; the run waits for the answer. */
  | { type: "question-asked"; question: Question }
  /** The answer was typed in this terminal. */
  | { type: "answer-typed"; answer: string }
  /** The answer reached the agent (as the person's instruction, unless already said) and the question is closed. */
  | { type: "answer-delivered"; question: Question; said: { message: Message; text: string } | null };

export type ChangeOf<T extends Change["type"]> = Extract<Change, { type: T }>;

/** The messages a change brings, in the order they are stored. */
export function newMessages(change: Change): FreshMessage[] {
  switch (change.type) {
    case "appended":
      return [{ message: change.message, kind: change.kind }];
    case "archived":
      return [{ message: change.message, kind: "archived" }];
    case "answered":
      return [{ message: change.response.message, kind: "conversation" }];
    case "turn-closed":
    case "steered":
      return [{ message: change.message, kind: "conversation" }];
    case "answer-delivered":
      return change.said ? [{ message: change.said.message, kind: "conversation" }] : [];
    case "refused":
      return change.withheld.map((w) => ({ message: w.message, kind: "injected" }));
    case "compacted":
      return change.compaction.live.filter((e) => e.seq === null).map((e) => ({ message: e.message, kind: e.kind }));
    default:
      return [];
  }
}
