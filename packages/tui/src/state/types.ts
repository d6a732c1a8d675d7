import type { Budgets, ChecklistStatus, Usage } from "@hatloop/core";

// What the TUI shows, built from a snapshot (the session row, for a watcher attaching late) and
// then from loop events only. Buffers are bounded so a 10,000-event session uses flat memory.

export type Tone = "normal" | "muted" | "tool" | "good" | "warn" | "error" | "text" | "hat" | "you" | "iteration";

export interface ActivityEntry {
  id: number;
  iteration: number;
  tone: Tone;
  text: string;
  /** What Enter shows when the entry is opened (absent: the entry's text). */
  detail?: EntryDetail;
}

/** An activity entry opened whole: a title, what the event carried, and where the rest is stored. */
export interface EntryDetail {
  title: string;
  /** What the event carried in full (shown at once). */
  body: string;
  /** The stored source of the whole content, when the event carried only a preview or a summary. */
  ref?: DetailRef;
}

/**
 * Where an entry's whole content lives in the session's stored messages: a tool call and its result
 * (by tool_use id), a gate run (task_complete's result in that iteration), or an iteration's model text.
 */
export type DetailRef =
  { kind: "tool"; toolId: string; iteration: number } | { kind: "gate"; iteration: number } | { kind: "text"; iteration: number };

/** waiting: the agent asked a question (statusReason) and the run waits for the answer. */
export type ViewStatus = "starting" | "running" | "waiting" | "paused" | "completed" | "failed" | "stopped" | "interrupted";

export interface TuiState {
  sessionId: string;
  task: string;
  branch: string;
  model: string;
  hat: string;
  iteration: number;
  status: ViewStatus;
  statusReason: string | null;
  /** Runtime before `runningSince`, plus the time since then while running. */
  runtimeMs: number;
  runningSince: number | null;
  context: { tokens: number; window: number; percent: number; zone: "green" | "gauge" | "warn" | "compact" };
  usage: Usage;
  costUsd: number;
  budgets: Budgets;
  hats: Array<{ hat: string; iteration: number }>;
  checklist: Array<{ id: string; description: string; status: ChecklistStatus; reason: string | null }>;
  scratchpad: string;
  activity: ActivityEntry[];
  /**
   * Text of the response being streamed (its end only, `cut` once its start was dropped), and the
   * entries of the signals read in it so far, `held` to show after that text once it settles.
   */
  streaming: { iteration: number; text: string; cut: boolean; held?: Array<Omit<ActivityEntry, "id">> } | null;
  nextId: number;
  /** The iteration under way: its header entry, updated with what it has cost so far. */
  current: { entry: ActivityEntry; hat: string; tokens: number; costUsd: number } | null;
  /** Entries dropped from the front of the bounded activity buffer. */
  dropped: number;
  /**
   * What the run is doing now, oldest first: the model call under way (id null) and the tool calls
   * not yet answered, each since its event's time (the run's clock, also for a watcher).
   */
  doing: Array<{ id: string | null; what: string; since: number }>;
  /** The checkpoints that committed changes, oldest first (the files view reads their diffs). */
  checkpoints: Array<{ seq: number; commit: string; iteration: number; reason: string }>;
  events: number;
}

export interface Snapshot {
  id: string;
  task: string;
  branch: string;
  model: string;
  hat: string;
  iteration: number;
  status: string;
  stopReason: string | null;
  /** The agent's open question, when the session waits for an answer. */
  question?: string | null;
  runtimeMs: number;
  contextTokens: number;
  contextWindow: number;
  usage: Usage;
  costUsd: number;
  budgets: Budgets;
  scratchpad: string;
  checklist?: TuiState["checklist"];
  /** The hats worn so far, from the session's stored events (resume, watch); absent for a new run. */
  hats?: TuiState["hats"];
}
