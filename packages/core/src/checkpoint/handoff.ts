import { buildHandoff, type Acceptance, type GitFacts, type Handoff } from "@hatloop/context";
import type { GitPort } from "../ports/git.js";
import { revisionsOf, runtimeMs, type LoopState } from "../state/loop-state.js";
import type { CheckpointReason, Store } from "../store/port.js";
import type { FailureContext, HandoffBuilder } from "./draft.js";

// The handoff written with every checkpoint: the summary plus the working state,
// thread, open items, decisions and learnings. Git facts come from the repository, never from the
// model. The running decisions, open items and last failure (carryOf) live on in the loop state (the
// checkpoint's draft hands them back and the loop applies them), so what a compaction dropped from the
// live context is not dropped from the handoff. The completion checkpoint's handoff closes the
// working state: nothing is left for a next agent to redo.

export function handoffBuilder(deps: { git: GitPort; store: Store; now(): number }): HandoffBuilder {
  return async (
    state: Readonly<LoopState>,
    gitCommit: string | null,
    failure?: FailureContext,
    reason?: CheckpointReason,
  ): Promise<Handoff> => {
    const { session } = state;
    // Outside in-place sessions, gitCommit is what commitAll just made of the whole worktree.
    const cleanAt = session.inPlace || gitCommit === null ? undefined : gitCommit;
    const git = await deps.git.facts(session.worktreePath, session.baseCommit, cleanAt).catch(() => fallbackFacts(state, gitCommit));
    const learnings = (await deps.store.memories.bySession(session.id))
      .filter((m) => m.status === "active")
      .map((m) => `[${m.type}] ${m.content}`);
    const handoff = buildHandoff({
      generatedAt: new Date(deps.now()).toISOString(),
      task: { title: session.task },
      instructions: state.instructions,
      hat: state.hat.name,
      checklist: state.checklist,
      scratchpad: state.scratchpad,
      git: { ...git, headCommit: gitCommit ?? git.headCommit },
      messages: state.live.map((e) => e.message),
      decisions: state.decisions,
      openItems: state.openItems,
      lastFailure: state.lastFailure,
      learnings,
      usage: {
        iteration: state.iteration,
        ...state.usage,
        costUsd: state.costUsd,
        runtimeMs: runtimeMs(state, deps.now()),
        contextTokens: state.contextTokens,
        contextWindow: session.contextWindow,
        budgets: session.budgets,
      },
      failure: failure ?? null,
      acceptance: acceptanceOf(state.grades),
      completed: reason === "completion",
    });
    return handoff;
  };
}

function acceptanceOf(grades: Readonly<LoopState>["grades"]): Acceptance | null {
  const last = grades.at(-1);
  if (!last) return null;
  return { rounds: grades.length, revisions: revisionsOf(grades), satisfied: last.satisfied, verdicts: last.verdicts };
}

function fallbackFacts(state: Readonly<LoopState>, gitCommit: string | null): GitFacts {
  return {
    branch: state.session.branch,
    headCommit: gitCommit ?? state.session.headCommit ?? state.session.baseCommit,
    modifiedFiles: [],
    createdFiles: [],
    deletedFiles: [],
    diffstat: { filesChanged: 0, insertions: 0, deletions: 0 },
    commits: [],
  };
}
