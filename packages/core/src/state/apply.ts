import type { GradeRecord, Usage } from "../store/port.js";
import type { Change } from "./change.js";
import type { LiveEntry, StoredEntry } from "./live-entry.js";
import { addUsage, MAX_INSTRUCTIONS, promptTokens, type LoopState } from "./loop-state.js";

// The one place the loop state changes, called only by the loop's write path (loop/commit.ts) with
// a step's change and the messages (or grading) it brought as stored: a reader who wants to know who sets a
// field reads one switch. Pure but for the state it is given: no store, no events, no clock.

/** Hat changes kept, so checkpoints stay the same size however long the session runs. */
const MAX_HAT_HISTORY = 50;

export function apply(state: LoopState, change: Change, stored: readonly StoredEntry[], grade?: GradeRecord): void {
  state.nextSeq += stored.length;
  switch (change.type) {
    case "run-started":
    case "run-ended":
    case "iteration-finished":
    case "archived":
    case "remembered":
    case "question-asked":
    case "answer-typed":
      return; // the session row and the event stream only
    case "iteration-started":
      state.iteration++;
      state.eventIteration = state.iteration;
      return;
    case "iteration-abandoned":
      state.iteration--;
      return;
    case "budgets-raised":
      state.session = { ...state.session, budgets: change.budgets };
      return;
    case "paid":
      pay(state, change.usage, change.costUsd);
      return;
    case "overflowed":
      if (change.contextWindow !== null && change.contextWindow < state.session.contextWindow)
        state.session = { ...state.session, contextWindow: change.contextWindow };
      if (change.promptTokens !== null) state.contextTokens = change.promptTokens;
      return;
    case "request-built":
      state.request = { system: change.system, tools: change.tools };
      return;
    case "guard-updated":
      state.guard = change.guard;
      return;
    case "compacted": {
      const { compaction } = change;
      const fresh = stored.values();
      state.live = compaction.live.map((e) => (e.seq === null ? liveEntry(fresh.next().value!) : e));
      state.stubbed = compaction.stubbed;
      state.contextTokens = compaction.tokensAfter;
      state.anchor = null; // the old anchor measured a different prefix
      state.compactions++;
      if (compaction.decisions) state.decisions = compaction.decisions;
      if (compaction.lastFailure !== undefined) state.lastFailure = compaction.lastFailure;
      if (compaction.cost) pay(state, compaction.cost.usage, compaction.cost.costUsd);
      state.scratchpad = change.scratchpad;
      state.guard = change.guard;
      state.notes.push(
        `Context compacted (${compaction.strategy}): about ${compaction.tokensBefore} -> ${compaction.tokensAfter} tokens. Removed tool results are stubs naming their archive id; older turns are summarised under Compacted History. Everything is stored: the recall tool fetches any of it.`,
      );
      return;
    }
    case "appended":
      state.live.push(liveEntry(stored[0]!));
      return;
    case "answered":
      state.live.push(liveEntry(stored[0]!));
      state.anchor = { usage: change.response.usage, entries: state.live.length - 1 };
      // What the API reported, until a context hook measures more precisely at the end of the turn.
      state.contextTokens = contextTokensAfter(change.response.usage);
      if (change.checklist) state.checklist = change.checklist;
      return;
    case "refused":
      change.withheld.forEach(({ index, ids }, i) => {
        state.live[index] = liveEntry(stored[i]!);
        for (const id of ids) state.stubbed.add(id);
      });
      state.anchor = { usage: change.usage, entries: state.live.length };
      return;
    case "called":
      for (const signature of change.signatures) state.seenCalls.add(signature);
      return;
    case "scratchpad-replaced":
      state.scratchpad = change.scratchpad;
      return;
    case "checklist-stepped":
      state.checklist = change.step.checklist;
      return;
    case "routed":
      state.hatHistory = [...state.hatHistory, { hat: change.to.name, iteration: state.iteration, topic: change.topic }].slice(
        -MAX_HAT_HISTORY,
      );
      state.hat = change.to;
      return;
    case "health-checked":
      state.health = change.health;
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
      state.live.push(liveEntry(stored[0]!));
      state.notes = [];
      instruct(state, change.steering);
      if (change.measurement) state.contextTokens = change.measurement.tokens;
      if (change.guard) state.guard = change.guard;
      return;
    case "steered":
      state.live.push(liveEntry(stored[0]!));
      instruct(state, change.steering);
      return;
    case "graded":
      state.grades = [...state.grades, grade!];
      return;
    case "answer-delivered":
      if (!change.said) return;
      state.live.push(liveEntry(stored[0]!));
      instruct(state, [change.said.text]);
      return;
    case "checkpointed":
      if (change.carry) {
        state.decisions = change.carry.decisions;
        state.openItems = change.carry.openItems;
        state.lastFailure = change.carry.lastFailure;
      }
      state.checkpointTokens = { ...state.checkpointTokens, [change.reason]: change.row.contextTokens };
      return;
  }
}

function pay(state: LoopState, usage: Usage, costUsd: number): void {
  state.usage = addUsage(state.usage, usage);
  state.costUsd += costUsd;
}

function instruct(state: LoopState, said: readonly string[]): void {
  if (said.length) state.instructions = [...state.instructions, ...said].slice(-MAX_INSTRUCTIONS);
}

/** A stored message in the live context (archived ones never are). */
function liveEntry(entry: StoredEntry): LiveEntry {
  return { seq: entry.seq, message: entry.message, kind: entry.kind === "injected" ? "injected" : "conversation" };
}

/**
 * The next request's size when only the API's numbers are known: the prompt it answered plus the
 * answer. (A context hook refines it at the end of the turn, anchored on the same prompt size.)
 */
function contextTokensAfter(usage: Usage): number {
  return promptTokens(usage) + usage.outputTokens;
}
