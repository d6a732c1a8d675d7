import { estimateTokens } from "@hatloop/context";
import { failpoint } from "../failpoint.js";
import { KEPT_REASONS } from "../checkpoint/draft.js";
import { newMessages, type Change } from "../state/change.js";
import type { StoredEntry } from "../state/live-entry.js";
import { runtimeMs, type LoopState } from "../state/loop-state.js";
import type { ChecklistStep } from "../state/checklist-step.js";
import type { GradeRecord, Store } from "../store/port.js";

// What each change writes to the store, before the state takes it (the state then holds what the
// store holds: messages come back as stored, secrets redacted at the store's boundary). Called only
// by the write path (commit.ts), with the state as it was before the change.

export interface Written {
  /** The change's new messages as stored, in order, with their seqs. */
  messages: StoredEntry[];
  /** The stored checkpoint's seq. */
  checkpointSeq?: number;
  /** The grading as stored (redacted). */
  grade?: GradeRecord;
}

export async function writeChange(store: Store, state: Readonly<LoopState>, change: Change): Promise<Written> {
  const id = state.session.id;
  const messages = await storeMessages(store, state, change);
  switch (change.type) {
    case "run-started":
      await store.sessions.update(id, {
        status: "running",
        stopReason: null,
        lastError: null,
        pid: change.pid,
        host: change.host,
        startedAt: state.session.startedAt ?? new Date(change.at),
        heartbeatAt: new Date(change.at),
      });
      break;
    case "run-ended": {
      const { outcome } = change;
      await store.sessions.update(id, {
        status: outcome.status,
        stopReason: outcome.reason,
        lastError: outcome.status === "failed" ? outcome.reason : null,
        runtimeMs: runtimeMs(state, change.at),
        finishedAt: outcome.status === "completed" ? new Date(change.at) : null,
        pid: null,
        iteration: state.iteration,
        hat: state.hat.name,
      });
      break;
    }
    case "iteration-finished":
      await store.sessions.update(id, {
        iteration: state.iteration,
        hat: state.hat.name,
        contextTokens: state.contextTokens,
        runtimeMs: runtimeMs(state, change.at),
        heartbeatAt: new Date(change.at),
      });
      break;
    case "paid":
      await store.sessions.addUsage(id, change.usage, change.costUsd);
      break;
    case "overflowed":
      if (change.contextWindow !== null) await store.sessions.update(id, { contextWindow: change.contextWindow });
      break;
    case "compacted": {
      const { cost } = change.compaction;
      if (cost) await store.sessions.addUsage(id, cost.usage, cost.costUsd);
      if (change.scratchpad !== state.scratchpad) await store.sessions.update(id, { scratchpad: change.scratchpad });
      break;
    }
    case "answered":
      for (const step of change.steps) await writeStep(store, id, step);
      break;
    case "scratchpad-replaced":
      await store.sessions.update(id, { scratchpad: change.scratchpad });
      break;
    case "checklist-stepped":
      await writeStep(store, id, change.step);
      break;
    case "remembered":
      if (!change.duplicate)
        await store.memories.add({
          sessionId: id,
          repoPath: state.session.repoPath,
          kind: "memory",
          type: change.memoryType,
          key: null,
          content: change.text,
          confidence: 0.6,
          source: "signal",
          iteration: state.iteration,
        });
      break;
    case "checkpointed": {
      const record = await store.checkpoints.append(id, change.row);
      if (change.reason !== "start") failpoint("after-checkpoint-row");
      await store.sessions.update(id, { headCommit: change.row.gitCommit });
      await store.checkpoints.prune(id, change.retain, KEPT_REASONS);
      return { messages, checkpointSeq: record.seq };
    }
    case "graded":
      return { messages, grade: await store.grades.append(id, change.grade) };
    case "question-asked":
      await store.sessions.update(id, { status: "waiting", question: change.question });
      break;
    case "answer-typed":
      await store.sessions.answer(id, change.answer, "terminal");
      break;
    case "answer-delivered":
      await store.sessions.update(id, { status: "running", question: null });
      break;
    default:
      break;
  }
  return { messages };
}

/** The change's new messages, with the next seqs, in one statement; handed back as the store holds them. */
async function storeMessages(store: Store, state: Readonly<LoopState>, change: Change): Promise<StoredEntry[]> {
  const fresh = newMessages(change);
  if (fresh.length === 0) return [];
  const stored = await store.messages.append(
    state.session.id,
    fresh.map((m, i) => ({
      seq: state.nextSeq + i,
      iteration: state.iteration,
      hat: state.hat.name,
      kind: m.kind,
      message: m.message,
      tokenEstimate: estimateTokens([m.message]),
    })),
  );
  return stored.map((m) => ({ seq: m.seq, message: m.message, kind: m.kind }));
}

async function writeStep(store: Store, sessionId: string, { write }: ChecklistStep): Promise<void> {
  if (write?.kind === "upsert") await store.checklist.upsert(sessionId, [{ id: write.id, description: write.description }]);
  else if (write?.kind === "status") await store.checklist.setStatus(sessionId, write.id, write.status, write.reason);
}
