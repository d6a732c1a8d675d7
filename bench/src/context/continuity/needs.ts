import { blocksOf, realUserText, toolResultText, type Message } from "@hatloop/context";
import { searchableText } from "../../util/message-text.js";
import { itemsOf } from "./items.js";

// What the real agent needed from old context, read from the transcript's own future: at each model
// call, the items its answer uses (items.ts) that appear in the conversation before its recent turns
// and not in those turns. The agent can only have had them from old context; a strategy that no
// longer sends them made the agent work without them (or re-read them).

/** Recent turns: the last three assistant messages and what answered them. */
const RECENT_TURNS = 3;

export interface CallNeeds {
  /** Index of the model call (0-based). */
  call: number;
  items: string[];
}

/**
 * The transcript's messages as the text every harness delivers, and where each item occurs
 * (memoised). What another agent's harness injected around the conversation (its reminders, its
 * environment listings) is left out: it is not context a context manager kept or lost, and a
 * different harness (hatloop) never sends it.
 */
export class TranscriptText {
  readonly texts: string[];
  private readonly found = new Map<string, number[]>();

  constructor(readonly messages: readonly Message[]) {
    this.texts = messages.map(deliveredText);
  }

  /** Indices of the messages whose text holds `item`, ascending. */
  occurrences(item: string): number[] {
    let at = this.found.get(item);
    if (!at) {
      at = [];
      for (let i = 0; i < this.texts.length; i++) if (this.texts[i]!.includes(item)) at.push(i);
      this.found.set(item, at);
    }
    return at;
  }
}

function deliveredText(message: Message): string {
  if (message.role === "assistant") return searchableText([message]);
  const results = blocksOf(message).flatMap((b) => (b.type === "tool_result" ? [toolResultText(b)] : []));
  return [...results, realUserText(message)].join("\n");
}

/** What an assistant message uses: its text and the string values of its tool inputs (not thinking). */
export function usedText(message: Message): string {
  return blocksOf(message)
    .flatMap((b) => (b.type === "text" ? [b.text] : b.type === "tool_use" ? [searchableText([{ role: "assistant", content: [b] }])] : []))
    .join("\n");
}

/** Per call, the items its answer needs from context older than its recent turns. */
export function callNeeds(text: TranscriptText, calls: readonly number[], recentTurns = RECENT_TURNS): CallNeeds[] {
  return calls.map((at, call) => {
    const recentStart = call >= recentTurns ? calls[call - recentTurns]! : 0;
    const items = [...itemsOf(usedText(text.messages[at]!))].filter((item) => {
      const occ = text.occurrences(item);
      const older = occ.length > 0 && occ[0]! < recentStart;
      const recent = occ.some((i) => i >= recentStart && i < at);
      return older && !recent;
    });
    return { call, items };
  });
}
