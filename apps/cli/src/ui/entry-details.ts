import { textOf, toolResultText, toolResults, toolUses, type ToolResultBlock, type ToolUseBlock } from "@hatloop/context";
import type { Store, StoredMessage } from "@hatloop/core";
import type { DetailRef } from "@hatloop/tui";

// What the TUI shows when an activity entry is opened: events carry previews (a tool result's first
// line, a tool call's summary, no gate output), the messages table keeps every tool call, result and
// response in full, also those compaction took out of the live context. Read from the newest back,
// a page at a time, down to the entry's iteration: opening a recent entry reads a page or two.

const PAGE = 200;

export function entryDetails(store: Store, sessionId: string): (ref: DetailRef) => Promise<string> {
  return async (ref) => {
    const messages = await iterationMessages(store, sessionId, ref.iteration);
    if (ref.kind === "text") {
      const text = messages.filter((m) => m.message.role === "assistant" && m.kind === "conversation").map((m) => textOf(m.message).trim());
      if (!text.some(Boolean)) throw new Error(`no model text stored for iteration ${ref.iteration}`);
      return text.filter(Boolean).join("\n\n");
    }
    const uses = messages.flatMap((m) => toolUses(m.message));
    const use = ref.kind === "tool" ? uses.find((u) => u.id === ref.toolId) : uses.findLast((u) => u.name === "task_complete");
    if (!use)
      throw new Error(
        ref.kind === "tool" ? `tool call ${ref.toolId} is not stored` : `no task_complete stored for iteration ${ref.iteration}`,
      );
    const result = messages.flatMap((m) => toolResults(m.message)).find((r) => r.tool_use_id === use.id);
    return toolText(use, result);
  };
}

/** The call's input as JSON, then its whole result (the gates' output, for task_complete). */
function toolText(use: ToolUseBlock, result: ToolResultBlock | undefined): string {
  const input = `${use.name} input:\n${JSON.stringify(use.input, null, 2)}`;
  if (!result) return `${input}\n\n(no result stored yet)`;
  return `${input}\n\n${use.name} result${result.is_error ? " (error)" : ""}:\n${toolResultText(result)}`;
}

/** The stored messages of `iteration`, in order. */
async function iterationMessages(store: Store, sessionId: string, iteration: number): Promise<StoredMessage[]> {
  const pages: StoredMessage[][] = [];
  for (let to = await store.messages.lastSeq(sessionId); to >= 0; to -= PAGE) {
    const page = await store.messages.range(sessionId, Math.max(0, to - PAGE + 1), to);
    pages.unshift(page.filter((m) => m.iteration >= iteration));
    if (page.length === 0 || page[0]!.iteration < iteration) break;
  }
  return pages.flat().filter((m) => m.iteration === iteration);
}
