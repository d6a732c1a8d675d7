import type { Hat } from "../hats/hat.js";
import type { ChecklistItem, MemoryRecord } from "../store/port.js";
import type { PromptComponents } from "./components.js";
import { renderTemplate } from "./template.js";

// Prompt assembly. The system prompt is [shared rules + memories, hat]: the first part stays the same
// for the whole session and the hat part changes only at a hat change, so the cached prefix survives
// every ordinary iteration.

export function systemParts(components: PromptComponents, hat: Hat, memories: MemoryRecord[]): string[] {
  const shared = memories.length
    ? `${components.system}\n\n${renderTemplate(components.memories, { memories: memories.map((m) => `- [${m.type}] ${m.content}`).join("\n") }, "memories.md")}`
    : components.system;
  return [shared, hatPrompt(components, hat)];
}

export function hatPrompt(components: PromptComponents, hat: Hat): string {
  return renderTemplate(components.hat, { name: hat.name, instructions: hat.instructions, publishes: publishList(hat) }, "hat.md");
}

/** hatloop's note that follows the task in the first message (the task itself goes verbatim before it). */
export function taskMessage(components: PromptComponents, values: { task: string; branch: string; base: string; hat: string }): string {
  return renderTemplate(components.task, { branch: values.branch, base: values.base.slice(0, 12), hat: values.hat }, "task.md");
}

export function continuationMessage(components: PromptComponents, hat: Hat, iteration: number): string {
  return renderTemplate(components.continuation, { iteration, hat: hat.name, publishes: publishList(hat) }, "continuation.md");
}

export function hatChangeMessage(
  components: PromptComponents,
  change: { from: string; to: string; topic: string; message: string; checklist: ChecklistItem[]; scratchpad: string },
): string {
  return renderTemplate(
    components["hat-change"],
    {
      from: change.from,
      to: change.to,
      topic: change.topic,
      message: change.message,
      checklist: formatChecklist(change.checklist) || "(empty)",
      scratchpad: change.scratchpad || "(empty)",
    },
    "hat-change.md",
  );
}

export function formatChecklist(items: ChecklistItem[]): string {
  const mark = { pending: " ", in_progress: "~", done: "x", failed: "!", skipped: "-" } as const;
  return items.map((i) => `[${mark[i.status]}] ${i.id}. ${i.description}${i.reason ? ` (${i.reason})` : ""}`).join("\n");
}

function publishList(hat: Hat): string {
  return hat.publishes.length ? hat.publishes.map((p) => `EVENT:${p}`).join(", ") : "none (complete the task with task_complete)";
}
