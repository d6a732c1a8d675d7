import { redactSecrets } from "../memory/redact.js";
import type { FailureInput, GitFacts, UsageInput } from "./inputs.js";
import type { CommitSummary, Diffstat, FailureContext, UsageSnapshot } from "./types.js";

// Input shapes (camelCase, as the loop and git give them) mapped to the handoff's persisted shapes.

const MAX_ERROR_LENGTH = 1000;
const MAX_COMMITS = 50;

/** At most `max` characters, newlines kept (an error's lines matter), an ellipsis when cut. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Exact duplicates removed, order kept. */
export function uniquePaths(paths: readonly string[] | undefined): string[] {
  return [...new Set((paths ?? []).map((p) => p.trim()).filter(Boolean))];
}

export function diffstatOf(diffstat: GitFacts["diffstat"]): Diffstat | null {
  if (diffstat === undefined || diffstat === null) return null;
  return {
    files_changed: diffstat.filesChanged,
    insertions: diffstat.insertions,
    deletions: diffstat.deletions,
    files: (diffstat.files ?? []).map((f) => ({ path: f.path, insertions: f.insertions, deletions: f.deletions })),
  };
}

/** Newest commits kept when there are many; subjects redacted (a commit message can hold a secret). */
export function commitsOf(commits: GitFacts["commits"]): CommitSummary[] {
  return (commits ?? []).slice(-MAX_COMMITS).map((c) => ({ sha: c.sha, subject: redactSecrets(c.subject.trim()) }));
}

export function usageOf(usage: UsageInput | null | undefined): UsageSnapshot | null {
  if (usage === undefined || usage === null) return null;
  const budgets = usage.budgets;
  return {
    iteration: usage.iteration,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    cost_usd: usage.costUsd,
    runtime_ms: usage.runtimeMs,
    context_tokens: usage.contextTokens,
    context_window: usage.contextWindow,
    budgets: {
      max_iterations: budgets?.maxIterations ?? null,
      max_tokens: budgets?.maxTokens ?? null,
      max_cost_usd: budgets?.maxCostUsd ?? null,
      max_runtime_ms: budgets?.maxRuntimeMs ?? null,
    },
  };
}

export function failureOf(failure: FailureInput | null | undefined): FailureContext | null {
  if (failure === undefined || failure === null || failure.lastError.trim() === "") return null;
  return {
    last_error: clip(redactSecrets(failure.lastError.trim()), MAX_ERROR_LENGTH),
    failed_at: failure.failedAt ?? null,
    recovery_hint: failure.recoveryHint?.trim() ? redactSecrets(failure.recoveryHint.trim()) : null,
  };
}
