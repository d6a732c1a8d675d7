import type { EventData } from "../events.js";
import type { ChecklistStep } from "../state/checklist-step.js";
import type { ChecklistItem } from "../store/port.js";
import type { Said } from "./said.js";

/** The events a checklist step shows the user: the list when an item was added, the mark otherwise. */
export function checklistStepEvents(step: ChecklistStep): Said[] {
  if (step.signal.kind === "checklist_add") return step.write ? [checklistSet(step.checklist)] : [];
  const status = step.signal.kind === "checklist_done" ? "done" : "failed";
  const reason = step.signal.kind === "checklist_failed" ? step.signal.reason : null;
  return [{ type: "signal.checklist", data: { id: step.signal.id, status, reason, known: step.known } }];
}

/** The whole list, as a view shows it. */
export function checklistSet(checklist: readonly ChecklistItem[]): Said {
  const data: EventData<"checklist.set"> = { items: checklist.map((i) => ({ id: i.id, description: i.description, status: i.status })) };
  return { type: "checklist.set", data };
}
