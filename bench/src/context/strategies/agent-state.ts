import { textOf, type ChecklistEntry, type Message } from "@hatloop/context";
import { parseSignals } from "@hatloop/core";

// The scratchpad and checklist an agent maintains with signals in its responses (SCRATCHPAD: is a
// full replacement; CHECKLIST_ADD/DONE/FAILED update items), parsed with hatloop's own parser. The
// reference loop and hatloop both keep this state; it is what their handoffs are built from.

export class AgentState {
  scratchpad = "";
  readonly checklist: Array<ChecklistEntry & { id: string }> = [];

  observe(message: Message): void {
    if (message.role !== "assistant") return;
    for (const signal of parseSignals(textOf(message), new Set())) {
      if (signal.kind === "scratchpad") this.scratchpad = signal.content;
      else if (signal.kind === "checklist_add") {
        const found = this.checklist.find((i) => i.id === signal.id);
        if (found) found.description = signal.description;
        else this.checklist.push({ id: signal.id, description: signal.description, status: "pending", reason: null });
      } else if (signal.kind === "checklist_done" || signal.kind === "checklist_failed") {
        const item = this.checklist.find((i) => i.id === signal.id);
        if (!item) continue;
        item.status = signal.kind === "checklist_done" ? "done" : "failed";
        item.reason = signal.kind === "checklist_failed" ? signal.reason : null;
      }
    }
  }

  openItems(): string[] {
    return this.checklist.filter((i) => i.status !== "done" && i.status !== "skipped").map((i) => i.description);
  }
}
