import { MARKERS } from "../markers.js";
import type { ContentBlock, Message } from "../messages.js";
import { isArtifactText, splitTurns } from "./turns.js";

// Raw summary and resume artifacts leave the live context before pruning (docs/design/context-layers.md): they are
// stored already, and the caller injects one lean packet instead, so keeping them would carry the
// same information twice and let the context grow through summaries.

/** Stands in for an artifact-only user message whose turn goes on (assistant replies follow). */
export const ARTIFACT_PLACEHOLDER = `${MARKERS.continuation} Continue from the compacted history in your context.`;

export interface StrippedArtifacts {
  /** Same length as the input; null where the message is removed. */
  messages: (Message | null)[];
  /** Indices whose artifact text was removed (the message dropped, trimmed or replaced). */
  artifacts: number[];
}

export function stripArtifacts(messages: readonly Message[]): StrippedArtifacts {
  const out: (Message | null)[] = messages.map(withoutArtifactBlocks);
  const artifacts = messages.flatMap((m, i) => (out[i] === m ? [] : [i]));
  // An emptied message is dropped when it is its whole turn; a turn that goes on keeps a short user
  // placeholder so its assistant reply is not left first or next to another assistant message.
  for (const turn of splitTurns(messages)) {
    if (!isEmptied(out[turn.start])) continue;
    out[turn.start] = turn.end - turn.start === 1 ? null : { role: "user", content: ARTIFACT_PLACEHOLDER };
  }
  for (const i of artifacts) if (isEmptied(out[i])) out[i] = null;
  return { messages: out, artifacts };
}

function withoutArtifactBlocks(message: Message): Message {
  if (message.role !== "user") return message;
  if (typeof message.content === "string") return isArtifactText(message.content) ? { role: "user", content: [] } : message;
  const kept = message.content.filter((b: ContentBlock) => !(b.type === "text" && isArtifactText(b.text)));
  return kept.length === message.content.length ? message : { ...message, content: kept };
}

function isEmptied(message: Message | null | undefined): boolean {
  return message !== null && message !== undefined && Array.isArray(message.content) && message.content.length === 0;
}
