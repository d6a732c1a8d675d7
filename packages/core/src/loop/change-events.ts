import type { Change } from "../state/change.js";
import { revisionsOf, type LoopState } from "../state/loop-state.js";
import { checklistStepEvents } from "./checklist-events.js";
import type { Said } from "./said.js";
import type { Written } from "./store-writes.js";

// The events each change is announced with, read from the change, what the store made of it and the
// state after it: what the views, the events table and the hooks learn of it. Called only by the write path (commit.ts).

export function changeEvents(change: Change, state: Readonly<LoopState>, written: Written, runner: string | undefined): Said[] {
  switch (change.type) {
    case "run-started": {
      const { session } = state;
      return [
        {
          type: "session.start",
          data: {
            task: session.task,
            hat: state.hat.name,
            branch: session.branch,
            worktree: session.worktreePath,
            model: session.model,
            resumed: change.resumed,
            maxIterations: session.budgets.maxIterations,
            ...(runner === undefined ? {} : { runner }),
          },
        },
        { type: "session.status", data: { status: "running", reason: change.resumed ? "resumed" : null } },
      ];
    }
    case "run-ended": {
      const { outcome } = change;
      const end: Said = {
        type: "session.end",
        data: { status: outcome.status, reason: outcome.reason, iterations: state.iteration, costUsd: state.costUsd },
      };
      // A run ending to wait for an answer said so when it began waiting, with the question.
      if (outcome.status === "waiting") return [end];
      return [{ type: "session.status", data: { status: outcome.status, reason: outcome.reason } }, end];
    }
    case "iteration-started":
      return [{ type: "iteration.start", data: { hat: state.hat.name } }];
    case "iteration-finished":
      return [
        {
          type: "usage.total",
          data: {
            usage: state.usage,
            costUsd: state.costUsd,
            contextTokens: state.contextTokens,
            contextWindow: state.session.contextWindow,
          },
        },
        { type: "iteration.end", data: { hat: state.hat.name, durationMs: change.at - change.startedAt } },
      ];
    case "overflowed":
      return [
        { type: "context.overflow", data: { promptTokens: change.promptTokens, maxTokens: change.maxTokens, attempt: change.attempt } },
      ];
    case "compacted": {
      const { compaction } = change;
      return [
        {
          type: "context.compacted",
          data: {
            strategy: compaction.strategy,
            level: compaction.level,
            tokensBefore: compaction.tokensBefore,
            tokensAfter: compaction.tokensAfter,
            removed: compaction.removed,
            ...(compaction.summaryFallback ? { summaryFallback: compaction.summaryFallback } : {}),
          },
        },
      ];
    }
    case "scratchpad-replaced":
      return [{ type: "signal.scratchpad", data: { chars: change.scratchpad.length, content: change.scratchpad.slice(0, 8_000) } }];
    case "checklist-stepped":
      return checklistStepEvents(change.step);
    case "remembered":
      return [{ type: "signal.memory", data: { memoryType: change.memoryType, text: change.text } }];
    case "routed":
      return [{ type: "hat.change", data: { from: change.from, to: change.to.name, topic: change.topic } }];
    case "health-checked":
      return change.notices.map((notice) => ({ type: "health.warning", data: notice }));
    case "turn-closed": {
      const gauge: Said[] = change.measurement
        ? [
            {
              type: "context.gauge",
              data: {
                tokens: change.measurement.tokens,
                window: state.session.contextWindow,
                percent: change.measurement.percent,
                zone: change.measurement.zone,
              },
            },
          ]
        : [];
      return [...steers(change.steering), ...gauge];
    }
    case "steered":
      return steers(change.steering);
    case "checkpointed":
      return [
        {
          type: "checkpoint.saved",
          data: {
            seq: written.checkpointSeq!,
            reason: change.reason,
            commit: change.row.gitCommit,
            contextTokens: change.row.contextTokens,
          },
        },
      ];
    case "graded": {
      const { round, satisfied, verdicts, model, usage, costUsd } = written.grade!;
      const revisions = revisionsOf(state.grades);
      const action = satisfied ? "complete" : revisions > change.maxRevisions ? "stop" : "revise";
      return [
        {
          type: "grader.verdict",
          data: { round, satisfied, verdicts, revisions, maxRevisions: change.maxRevisions, action, model, usage, costUsd },
        },
      ];
    }
    case "question-asked":
      return [{ type: "session.status", data: { status: "waiting", reason: change.question.text } }];
    case "answer-delivered": {
      const { question } = change;
      return [
        {
          type: "question.answered",
          data: { question: question.text, answer: question.answer ?? "", answeredBy: question.answeredBy ?? "" },
        },
        { type: "session.status", data: { status: "running", reason: "answered" } },
      ];
    }
    default:
      return [];
  }
}

function steers(steering: readonly string[]): Said[] {
  return steering.map((text) => ({ type: "steer", data: { text } }));
}
