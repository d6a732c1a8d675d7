import { buildThread, dedupeKeepNewest, extractNextAction, extractWorkingState, redactSecrets } from "../memory/index.js";
import { collectDecisions, collectLearnings, collectOpenItems, keyDecisionsOf, recentFindings } from "./collect.js";
import { buildContinuationPrompt } from "./continuation.js";
import type { HandoffInputs } from "./inputs.js";
import { MAX_BLOCKERS, progressOf } from "./progress.js";
import { parseScratchpad } from "./scratchpad.js";
import { commitsOf, diffstatOf, failureOf, uniquePaths, usageOf } from "./snapshots.js";
import { HANDOFF_SCHEMA, HANDOFF_SCHEMA_VERSION, type Handoff, type HandoffWorking } from "./types.js";

// Builds the handoff from explicit inputs. No I/O, no clock, no model: the same inputs give the same
// handoff. Text that came from the conversation is redacted; git facts are used as given.

function workingOf(inputs: HandoffInputs, fallbacks: ReadonlyArray<string | null>): HandoffWorking {
  const state = extractWorkingState(inputs.messages ?? [], {
    fallbackTopic: inputs.task.title,
    nextActionFallbacks: [...fallbacks, "Check the task against its checklist and finish it"],
  });
  return { ...state, next_action: redactSecrets(state.next_action) };
}

export function buildHandoff(inputs: HandoffInputs): Handoff {
  const messages = inputs.messages ?? [];
  const pad = parseScratchpad(inputs.scratchpad ?? "");
  const progress = progressOf(inputs.checklist ?? [], pad);
  const findings = recentFindings(messages);
  const decisions = collectDecisions(inputs.decisions ?? [], messages, pad);
  const working = workingOf(inputs, [extractNextAction(pad.lastAction), progress.inProgress, progress.remaining[0] ?? null]);
  const failure = failureOf(inputs.failure);
  const taskTitle = redactSecrets(inputs.task.title.trim());
  return {
    schema: HANDOFF_SCHEMA,
    schema_version: HANDOFF_SCHEMA_VERSION,
    generated_at: inputs.generatedAt,
    task_title: taskTitle,
    current_hat: inputs.hat,
    branch: inputs.git.branch,
    head_commit: inputs.git.headCommit,
    completed_items: progress.completed,
    remaining_items: progress.remaining,
    blocking_issues: dedupeKeepNewest([...progress.blockers, ...findings.blockers]).slice(-MAX_BLOCKERS),
    modified_files: uniquePaths(inputs.git.modifiedFiles),
    created_files: uniquePaths(inputs.git.createdFiles),
    deleted_files: uniquePaths(inputs.git.deletedFiles),
    key_decisions: keyDecisionsOf(decisions),
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
  };
}
