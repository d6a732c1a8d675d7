import { cleanItem, dedupeKeepNewest } from "../memory/items.js";
import { redactSecrets } from "../memory/redact.js";
import type { ChecklistEntry } from "./inputs.js";
import type { Scratchpad } from "./scratchpad.js";

// Progress for the handoff: the task checklist is the source of truth; without one, the
// scratchpad's Current Plan checkboxes stand in. Skipped items count as completed (they
// no longer remain); failed ones remain, with their reason, and are also blocking issues.

export interface Progress {
  completed: string[];
  remaining: string[];
  blockers: string[];
  /** The item being worked on, when the checklist says so. */
  inProgress: string | null;
}

export const MAX_BLOCKERS = 10;

function described(entry: ChecklistEntry): string {
  return redactSecrets(cleanItem(entry.description));
}

function withReason(text: string, label: string, reason: string | null | undefined): string {
  const why = reason?.trim() ? `: ${redactSecrets(reason.trim())}` : "";
  return `${text} (${label}${why})`;
}

function fromChecklist(checklist: readonly ChecklistEntry[]): Omit<Progress, "blockers"> & { failed: string[] } {
  const completed: string[] = [];
  const remaining: string[] = [];
  const failed: string[] = [];
  for (const entry of checklist) {
    const text = described(entry);
    if (entry.status === "done") completed.push(text);
    else if (entry.status === "skipped") completed.push(withReason(text, "skipped", entry.reason));
    else if (entry.status === "failed") {
      remaining.push(withReason(text, "failed", entry.reason));
      failed.push(withReason(text, "failed", entry.reason));
    } else remaining.push(text);
  }
  const current = checklist.find((e) => e.status === "in_progress");
  return { completed, remaining, failed, inProgress: current === undefined ? null : described(current) };
}

export function progressOf(checklist: readonly ChecklistEntry[], pad: Scratchpad): Progress {
  const source =
    checklist.length > 0
      ? fromChecklist(checklist)
      : {
          completed: pad.plan.filter((p) => p.done).map((p) => redactSecrets(p.text)),
          remaining: pad.plan.filter((p) => !p.done).map((p) => redactSecrets(p.text)),
          failed: [],
          inProgress: null,
        };
  const blockers = dedupeKeepNewest([...pad.blockers.map(redactSecrets), ...source.failed]);
  return {
    completed: source.completed,
    remaining: source.remaining,
    blockers: blockers.slice(-MAX_BLOCKERS),
    inProgress: source.inProgress,
  };
}
