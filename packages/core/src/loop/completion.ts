import { blocksOf, toolResultText, type Message } from "@hatloop/context";

// Completion is decided in the closing message of the iteration that called task_complete: its
// tool result says the gates passed (QUALITY_PASSED, task_complete's contract) and no note refuses
// completion. So a run killed after storing that message and before recording completion is
// completed on resume from what is stored, without asking the model for another turn.

export const COMPLETED = "task complete: quality gates passed";
export const COMPLETION_REFUSED = "Completion refused:";

/** True when `message` is the closing message of a completed task. */
export function completedIn(message: Message | undefined): boolean {
  if (message?.role !== "user") return false;
  const blocks = blocksOf(message);
  const passed = blocks.some((b) => b.type === "tool_result" && toolResultText(b).startsWith("QUALITY_PASSED"));
  const refused = blocks.some((b) => b.type === "text" && b.text.includes(COMPLETION_REFUSED));
  return passed && !refused;
}
