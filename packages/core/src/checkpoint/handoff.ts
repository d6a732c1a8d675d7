import { buildHandoff, carryOf, type Handoff } from "@hatloop/context";
import type { GitFacts, GitPort } from "../loop/deps.js";
import type { LoopState } from "../loop/state.js";
import { runtimeMs } from "../loop/state.js";
import type { Store } from "../store/port.js";
import type { FailureContext } from "./checkpointer.js";

// The handoff written with every checkpoint: seed 004's summary plus seed 001's working state,
// thread, open items, decisions and learnings. Git facts come from the repository, never from the
// model. The running decisions, open items and last failure (carryOf) live on in the loop state, so
// what a compaction dropped from the live context is not dropped from the handoff.

export function handoffBuilder(deps: { git: GitPort; store: Store; now(): number }) {
  return async (state: LoopState, gitCommit: string | null, failure?: FailureContext): Promise<Handoff> => {
    const { session } = state;
    const git = await deps.git.facts(session.worktreePath, session.baseCommit).catch(() => fallbackFacts(state, gitCommit));
    const learnings = (await deps.store.memories.bySession(session.id)).filter((m) => m.status === "active").map((m) => `[${m.type}] ${m.content}`);
    const handoff = buildHandoff({
      generatedAt: new Date(deps.now()).toISOString(),
      task: { title: session.task },
      instructions: state.instructions,
      hat: state.hat.name,
      checklist: state.checklist,
      scratchpad: state.scratchpad,
      git: {
        branch: git.branch,
        headCommit: gitCommit ?? git.headCommit,
        modifiedFiles: git.modifiedFiles,
        createdFiles: git.createdFiles,
        deletedFiles: git.deletedFiles,
        diffstat: { filesChanged: git.diffstat.files, insertions: git.diffstat.insertions, deletions: git.diffstat.deletions },
        commits: git.commits,
      },
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
    });
    Object.assign(state, carryOf(handoff));
    return handoff;
  };
}

function fallbackFacts(state: LoopState, gitCommit: string | null): GitFacts {
  return {
    branch: state.session.branch,
    headCommit: gitCommit ?? state.session.headCommit ?? state.session.baseCommit,
    modifiedFiles: [],
    createdFiles: [],
    deletedFiles: [],
    diffstat: { files: 0, insertions: 0, deletions: 0 },
    commits: [],
  };
}
