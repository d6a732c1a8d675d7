import { dedupeKeepNewest } from "../memory/items.js";
import { extractNextAction } from "../memory/open-items-extract.js";
import { redactSecrets } from "../memory/redact.js";
import { buildThread } from "../memory/thread.js";
import { extractWorkingState } from "../memory/working-state.js";
import { collectDecisions, collectLearnings, collectOpenItems, keyDecisionsOf, recentFindings } from "./collect.js";
import { buildContinuationPrompt } from "./continuation.js";
import type { HandoffCarry, HandoffInputs } from "./inputs.js";
import { MAX_BLOCKERS, progressOf } from "./progress.js";
import { parseScratchpad } from "./scratchpad.js";
import { commitsOf, diffstatOf, failureOf, uniquePaths, usageOf } from "./snapshots.js";
import { HANDOFF_SCHEMA, HANDOFF_SCHEMA_VERSION, type Handoff, type HandoffWorking } from "./types.js";
import { toolResults, toolResultText, type Message } from "../messages.js";
import { failureLine, firstMeaningfulLine } from "../window/failure-line.js";
import { isStubbedResult } from "../window/tool-result-stub.js";

// Builds the handoff from explicit inputs. No I/O, no clock, no model: the same inputs give the same
// handoff. Text that came from the conversation is redacted; git facts are used as given.

function workingOf(inputs: HandoffInputs, fallbacks: ReadonlyArray<string | null>): HandoffWorking {
  const state = extractWorkingState(inputs.messages ?? [], {
    fallbackTopic: inputs.task.title,
    nextActionFallbacks: [...fallbacks, "Check the task against its checklist and finish it"],
  });
  return {
    ...state,
    next_action: redactSecrets(state.next_action),
    last_failure: newestFailureLine(inputs.messages ?? []) ?? inputs.lastFailure ?? null,
  };
}

/**
 * At completion nothing is left to do: what the conversation last planned is done, and the gates
 * that passed resolved the failures seen on the way, so neither is handed on.
 */
function closedWorking(open: HandoffWorking, branch: string): HandoffWorking {
  const next = `Nothing left to do: the task is complete and its quality gates passed; review branch ${branch} and merge it`;
  return { ...open, status: "completed", interrupted: false, next_action: next, last_failure: null };
}

/** The failure line of the newest failing tool result that is not stubbed, if any. */
export function newestFailureLine(messages: readonly Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const failed = toolResults(messages[i]!)
      .filter((r) => r.is_error && !isStubbedResult(r))
      .at(-1);
    if (!failed) continue;
    const text = toolResultText(failed);
    const line = failureLine(text) ?? firstMeaningfulLine(text);
    return line === null ? null : redactSecrets(line.length > 240 ? `${line.slice(0, 239)}…` : line);
  }
  return null;
}

/** The user's own words after the task: kept verbatim (bounded), newest last, duplicates once. */
function instructionsOf(inputs: HandoffInputs): string[] {
  const cleaned = (inputs.instructions ?? [])
    .map((t) => redactSecrets(t.trim()))
    .filter(Boolean)
    .map((t) => (t.length > 500 ? `${t.slice(0, 499)}…` : t));
  return dedupeKeepNewest(cleaned).slice(-MAX_INSTRUCTIONS);
}

const MAX_INSTRUCTIONS = 10;

/** The running state a handoff hands to the next (see HandoffCarry). */
export function carryOf(handoff: Handoff): HandoffCarry {
  return { decisions: handoff.decisions, openItems: handoff.open_items, lastFailure: handoff.working.last_failure };
}

export function buildHandoff(inputs: HandoffInputs): Handoff {
  const messages = inputs.messages ?? [];
  const pad = parseScratchpad(inputs.scratchpad ?? "");
  const progress = progressOf(inputs.checklist ?? [], pad);
  const findings = recentFindings(messages);
  const decisions = collectDecisions(inputs.decisions ?? [], messages, pad);
  const open = workingOf(inputs, [extractNextAction(pad.lastAction), progress.inProgress, progress.remaining[0] ?? null]);
  const working = inputs.completed ? closedWorking(open, inputs.git.branch) : open;
  // Items still open at completion were accepted with it (ACKNOWLEDGE_FAILURES): they block nothing.
  const remaining = inputs.completed ? progress.remaining.map((item) => `${item} (left open at completion)`) : progress.remaining;
  const failure = failureOf(inputs.failure);
  const taskTitle = redactSecrets(inputs.task.title.trim());
  return {
    schema: HANDOFF_SCHEMA,
    schema_version: HANDOFF_SCHEMA_VERSION,
    generated_at: inputs.generatedAt,
    task_title: taskTitle,
    instructions: instructionsOf(inputs),
    current_hat: inputs.hat,
    branch: inputs.git.branch,
    head_commit: inputs.git.headCommit,
    completed_items: progress.completed,
    remaining_items: remaining,
    blocking_issues: inputs.completed ? [] : dedupeKeepNewest([...progress.blockers, ...findings.blockers]).slice(-MAX_BLOCKERS),
    modified_files: uniquePaths(inputs.git.modifiedFiles),
    created_files: uniquePaths(inputs.git.createdFiles),
    deleted_files: uniquePaths(inputs.git.deletedFiles),
    key_decisions: keyDecisionsOf(decisions, messages),
    continuation_prompt: buildContinuationPrompt({ taskTitle, hat: inputs.hat, working, failure }),
    working,
    thread: buildThread(messages),
    open_items: collectOpenItems(inputs.openItems ?? [], findings, { completed: progress.completed, remaining: progress.remaining }),
    decisions,
    learnings: collectLearnings(inputs.learnings ?? []),
    diffstat: diffstatOf(inputs.git.diffstat),
    commits: commitsOf(inputs.git.commits),
    usage: usageOf(inputs.usage),
    failure,
    open_question: null,
    acceptance: inputs.acceptance ?? null,
  };
}
