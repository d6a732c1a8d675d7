import type { DecisionScore } from "../continuity/decisions.js";
import type { InputResult, StrategyResult } from "../result.js";

// The verdict on one real session: every strategy a point (cost, share of needed items kept), the
// peers at their defaults and at every setting swept, hatloop at its default. hatloop is compared
// with the cheapest peer setting that keeps at least as much, and with Claude Code's default as the
// issue asks: where that peer compacts, keeping as much at half its cost at most; where it does not,
// keeping as much at no more than sending everything. A peer's cost is its cheaper TTL (5 minutes
// or an hour, both settings a user can pick); hatloop's is what its own TTL policy paid.

export interface FrontierPoint {
  strategy: string;
  /** The peer's family (claude-code, api-compaction, ...), or "hatloop". */
  family: string;
  isDefault: boolean;
  costUsd: number;
  /** Share of needed items in the requests. */
  kept: number;
  /** Kept, or one recall call away (null: no recall). */
  keptOrRecallable: number | null;
  /** No request over the window, none invalid. */
  valid: boolean;
  /** It compacted (summarised, cleared or pruned) at least once. */
  compacted: boolean;
}

export interface SessionVerdict {
  input: string;
  calls: number;
  neededItems: number;
  timed: boolean;
  points: FrontierPoint[];
  hatloop: FrontierPoint;
  claudeCode: FrontierPoint;
  raw: FrontierPoint;
  /** Sending everything: its largest request (% of the window), and what it paid before passing each share of the window. */
  sendAll: { peakPctOfWindow: number; costUntil: StrategyResult["costUntil"] };
  /** The cheapest valid peer setting that keeps at least as much as hatloop. */
  cheapestAsGood: FrontierPoint | null;
  /** Valid peer settings both cheaper than hatloop and keeping more. */
  dominating: FrontierPoint[];
  /** Claude Code's default: does hatloop keep as much, at half its cost (it compacts) or at most raw's (it does not)? */
  claudeCodeCheck: { peerCompacts: boolean; keepsAsMuch: boolean; costRatio: number; costOk: boolean };
  person: { calls: number; task: number; latest: number };
  /** Modified paths named by hatloop's resume packet. */
  paths: { present: number; total: number };
  decisions: { handoff: DecisionScore; fullHandoff: DecisionScore | null } | null;
  noise: StrategyResult["continuity"]["noise"];
}

const DEFAULT_PEERS = new Set([
  "raw",
  "claude-code",
  "api-compaction",
  "api-clear-tool-uses",
  "goose",
  "codex",
  "observation-masking",
  "keep-last-10",
  "middle-out-drop",
]);

function familyOf(name: string): string {
  if (name.startsWith("hatloop")) return "hatloop";
  if (name.startsWith("mask10+summary")) return "mask+summary";
  return name.replace(/[@[].*$/, "");
}

function pointOf(s: StrategyResult): FrontierPoint {
  const family = familyOf(s.strategy);
  const { needs } = s.continuity;
  const share = (n: number) => (needs.total ? n / needs.total : 1);
  return {
    strategy: s.strategy,
    family,
    isDefault: family === "hatloop" ? s.strategy === "hatloop" : DEFAULT_PEERS.has(s.strategy),
    costUsd: family === "hatloop" ? s.costUsd : Math.min(s.costs.ttl5mUsd, s.costs.ttl1hUsd),
    kept: share(needs.present),
    keptOrRecallable: needs.recallable === null ? null : share(needs.present + needs.recallable),
    valid: s.callsOverWindow === 0 && s.pairing.invalidRequests === 0,
    compacted: Object.entries(s.stats).some(([k, v]) => ["summaries", "compactions", "clearedRequests"].includes(k) && v > 0),
  };
}

/** The verdict of a transcript input that ran hatloop, Claude Code's default and raw; null otherwise. */
export function sessionVerdict(input: InputResult): SessionVerdict | null {
  const byName = new Map(input.strategies.map((s) => [s.strategy, s]));
  const h = byName.get("hatloop");
  const cc = byName.get("claude-code");
  const raw = byName.get("raw");
  if (input.kind !== "transcript" || !h || !cc || !raw) return null;
  const points = input.strategies.map(pointOf);
  const hatloop = pointOf(h);
  const peers = points.filter((p) => p.family !== "hatloop" && p.valid);
  const claudeCode = pointOf(cc);
  const rawPoint = pointOf(raw);
  const ratio = hatloop.costUsd / claudeCode.costUsd;
  return {
    input: input.input,
    calls: input.calls,
    neededItems: input.needs.items,
    timed: input.time.timed,
    points,
    hatloop,
    claudeCode,
    raw: rawPoint,
    sendAll: { peakPctOfWindow: raw.peakPctOfWindow, costUntil: raw.costUntil },
    cheapestAsGood: peers.filter((p) => p.kept >= hatloop.kept).sort((a, b) => a.costUsd - b.costUsd)[0] ?? null,
    dominating: peers.filter((p) => p.costUsd < hatloop.costUsd && p.kept > hatloop.kept).sort((a, b) => a.costUsd - b.costUsd),
    claudeCodeCheck: {
      peerCompacts: claudeCode.compacted,
      keepsAsMuch: hatloop.kept >= claudeCode.kept,
      costRatio: ratio,
      costOk: claudeCode.compacted ? ratio <= 0.5 : hatloop.costUsd <= rawPoint.costUsd,
    },
    person: { calls: h.continuity.person.calls, task: h.continuity.person.task, latest: h.continuity.person.latest },
    paths: { present: h.pathsHandoff.present, total: h.pathsHandoff.total },
    decisions: h.continuity.decisions,
    noise: h.continuity.noise,
  };
}
