import { apiClearToolUses } from "./api-clear-tool-uses.js";
import { summarizing } from "./summarize.js";
import type { Strategy } from "./types.js";

// The peers a user can really configure, each at its default and swept over the settings its users
// change (the verdict compares hatloop with the cheapest of them that keeps as much, not with the
// defaults). Defaults: Claude Code auto-compacts at the effective window minus 13k (200k window,
// 20k reserved for the summary: 167k, 83.5%; CLAUDE_AUTOCOMPACT_PCT_OVERRIDE moves it); the API's
// server-side compaction `compact_20260112` triggers at 150,000 input tokens (at least 50,000);
// context editing `clear_tool_uses_20250919` at 100,000 keeping 3 tool uses; Goose at 80% of the
// window; Codex at 90%.

const pct = (p: number) => (window: number) => Math.floor((window * p) / 100);
const tokens = (n: number) => () => n;

export function claudeCode(atPct = 83.5): Strategy {
  const isDefault = atPct === 83.5;
  return summarizing({
    name: isDefault ? "claude-code" : `claude-code@${atPct}%`,
    summary: `Claude Code auto-compact at ${atPct}% of the window${isDefault ? " (its default)" : " (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE)"}: nine-section summary with every user message, the last 5 files read re-attached`,
    trigger: pct(atPct),
    flavor: "claude-code",
    after: { kind: "files", files: 5, tokensPerFile: 5_000 },
  });
}

function apiCompaction(trigger = 150_000): Strategy {
  return summarizing({
    name: trigger === 150_000 ? "api-compaction" : `api-compaction@${trigger / 1000}k`,
    summary: `Messages API server-side compaction compact_20260112, trigger ${trigger} input tokens: the model's summary replaces everything before it (billed on the main model)`,
    trigger: tokens(trigger),
    flavor: "api",
  });
}

function maskingWithSummary(atPct: number): Strategy {
  return summarizing({
    name: `mask10+summary@${atPct}%`,
    summary: `observation masking (last 10 turns' results kept) plus a summary at ${atPct}% (the Complexity Trap's hybrid)`,
    trigger: pct(atPct),
    flavor: "api",
    maskTurns: 10,
  });
}

const goose: Strategy = summarizing({
  name: "goose",
  summary: "Goose auto-compact at 80%: structured summary plus the user's last request",
  trigger: pct(80),
  flavor: "goose",
  after: { kind: "last-request" },
});

const codex: Strategy = summarizing({
  name: "codex",
  summary: "Codex CLI auto-compact at 90%: handoff summary plus the user's newest messages up to 20,000 tokens",
  trigger: pct(90),
  flavor: "api",
  after: { kind: "recent-requests", tokens: 20_000 },
});

/** Every peer at its default. */
export const PEER_DEFAULTS: readonly Strategy[] = [claudeCode(), apiCompaction(), apiClearToolUses(), goose, codex];

/** The settings their users turn: earlier triggers, more kept, clearing in bigger batches. */
export const PEER_SWEEPS: readonly Strategy[] = [
  ...[10, 15, 20, 25, 30, 40, 50, 60, 70, 90].map((p) => claudeCode(p)),
  ...[50_000, 75_000, 100_000].map((t) => apiCompaction(t)),
  apiClearToolUses({ trigger: 50_000 }),
  apiClearToolUses({ keep: 10 }),
  apiClearToolUses({ trigger: 30_000, keep: 5 }),
  apiClearToolUses({ trigger: 50_000, keep: 10, clearAtLeast: 20_000 }),
  apiClearToolUses({ trigger: 50_000, clearToolInputs: true }),
  ...[30, 50, 80].map((p) => maskingWithSummary(p)),
];
