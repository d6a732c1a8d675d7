import type { Message } from "@hatloop/context";
import type { BenchInput } from "../input.js";
import { callNeeds, TranscriptText, type CallNeeds } from "./needs.js";
import { personMessages, type PersonMessage } from "./person.js";

// Everything the continuity scores need from an input, computed once and shared by every strategy:
// where the model calls are, what each call needed from old context, the person's messages, and
// when each request was sent.

/** The clock of a session without times: one call every 30 s (the cache never expires). */
const STEP_MS = 30_000;
const START = Date.parse("2026-01-01T00:00:00Z");

export interface InputAnalysis {
  /** Transcript index of each model call's assistant message. */
  calls: number[];
  text: TranscriptText;
  needs: CallNeeds[];
  people: PersonMessage[];
  /** When each call's request was sent (epoch ms): the time of the message before its answer. */
  sentAt: number[];
  /** Whether sentAt comes from the transcript (else the 30 s clock). */
  timed: boolean;
  toolNames: string[];
}

export function analyseInput(input: BenchInput): InputAnalysis {
  const calls = input.messages.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
  const text = new TranscriptText(input.messages);
  const times = input.times;
  const timed = Boolean(times?.some((t) => t !== null));
  const sentAt: number[] = [];
  for (const [k, at] of calls.entries()) {
    const known = times?.[at - 1] ?? times?.[at] ?? null;
    sentAt.push(known ?? (k === 0 ? START : sentAt[k - 1]! + STEP_MS));
  }
  return {
    calls,
    text,
    needs: callNeeds(text, calls),
    people: personMessages(input.messages),
    sentAt,
    timed,
    toolNames: toolNamesOf(input.messages),
  };
}

function toolNamesOf(messages: readonly Message[]): string[] {
  const names = new Set<string>();
  for (const m of messages) if (typeof m.content !== "string") for (const b of m.content) if (b.type === "tool_use") names.add(b.name);
  return [...names];
}
