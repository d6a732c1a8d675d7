import type { ChecklistSignal } from "../signals/types.js";
import type { ChecklistItem, ChecklistStatus } from "../store/port.js";

// Checklist signals as data. `stepChecklist` applies one signal to a list without touching the
// list, the store or the event stream, so a response that streams marks can show them live on a
// draft and drop them when the response is retried or fails; only the answer the loop keeps has
// its steps committed (written to the store and applied to the loop state).

type ChecklistWrite =
  { kind: "upsert"; id: string; description: string } | { kind: "status"; id: string; status: ChecklistStatus; reason: string | null };

export interface ChecklistStep {
  signal: ChecklistSignal;
  /** The list after the signal (the same array when nothing changed). */
  checklist: ChecklistItem[];
  /** What the store must be told; null when nothing changed. */
  write: ChecklistWrite | null;
  /** Feedback for the model (an unknown item). */
  note: string | null;
  /** The item existed before the signal. */
  known: boolean;
}

export function stepChecklist(list: readonly ChecklistItem[], signal: ChecklistSignal): ChecklistStep {
  const existing = list.find((i) => i.id === signal.id);
  const same = { signal, checklist: list as ChecklistItem[], write: null, note: null, known: Boolean(existing) };
  if (signal.kind === "checklist_add") {
    if (existing?.description === signal.description) return same;
    const checklist = existing
      ? list.map((i) => (i === existing ? { ...i, description: signal.description } : i))
      : [...list, { id: signal.id, description: signal.description, status: "pending" as const, reason: null }];
    return { ...same, checklist, write: { kind: "upsert", id: signal.id, description: signal.description } };
  }
  const status: ChecklistStatus = signal.kind === "checklist_done" ? "done" : "failed";
  const reason = signal.kind === "checklist_failed" ? signal.reason : null;
  if (!existing) {
    const ids = list.map((i) => i.id).join(", ") || "none yet; add them with CHECKLIST_ADD";
    return { ...same, note: `There is no checklist item "${signal.id}" (items: ${ids}).` };
  }
  if (existing.status === status && existing.reason === reason) return same;
  const checklist = list.map((i) => (i === existing ? { ...i, status, reason } : i));
  return { ...same, checklist, write: { kind: "status", id: signal.id, status, reason } };
}
