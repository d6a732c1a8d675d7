import type { Snapshot, TuiState, ViewStatus } from "./types.js";

const STATUSES: ViewStatus[] = ["starting", "running", "waiting", "paused", "completed", "failed", "stopped", "interrupted"];

/** The loop still runs (or is about to): its keys do something, and leaving the view detaches from it. */
export function isLiveStatus(status: ViewStatus): boolean {
  return status === "running" || status === "waiting" || status === "paused" || status === "starting";
}

export function initialState(snapshot: Snapshot, now = Date.now()): TuiState {
  const status = (STATUSES as string[]).includes(snapshot.status) ? (snapshot.status as ViewStatus) : "starting";
  const percent = snapshot.contextWindow ? Math.floor((snapshot.contextTokens * 100) / snapshot.contextWindow) : 0;
  return {
    sessionId: snapshot.id,
    task: snapshot.task,
    branch: snapshot.branch,
    model: snapshot.model,
    hat: snapshot.hat,
    iteration: snapshot.iteration,
    status,
    statusReason: status === "waiting" ? (snapshot.question ?? null) : snapshot.stopReason,
    runtimeMs: snapshot.runtimeMs,
    runningSince: status === "running" || status === "waiting" ? now : null,
    context: { tokens: snapshot.contextTokens, window: snapshot.contextWindow, percent, zone: zoneOf(percent) },
    usage: { ...snapshot.usage },
    costUsd: snapshot.costUsd,
    budgets: { ...snapshot.budgets },
    hats: snapshot.hats ? snapshot.hats.map((h) => ({ ...h })) : [{ hat: snapshot.hat, iteration: snapshot.iteration }],
    checklist: (snapshot.checklist ?? []).map((i) => ({ ...i })),
    scratchpad: snapshot.scratchpad,
    activity: [],
    streaming: null,
    current: null,
    nextId: 1,
    dropped: 0,
    doing: [],
    checkpoints: [],
    events: 0,
  };
}

/** The default zones, for a snapshot (events carry the real zone afterwards). */
export function zoneOf(percent: number): TuiState["context"]["zone"] {
  return percent >= 90 ? "compact" : percent >= 80 ? "warn" : percent >= 70 ? "gauge" : "green";
}
