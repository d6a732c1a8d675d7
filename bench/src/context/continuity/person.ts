import { realUserText, type Message } from "@hatloop/context";

// The person's words: the task (the first thing the person wrote) and the latest thing they wrote
// before a call. A request keeps a message when it holds its first HEAD_CHARS characters verbatim
// (whitespace collapsed): a long message may be carried as its opening plus a pointer to the rest.

const HEAD_CHARS = 1_000;

export interface PersonMessage {
  /** Index of the transcript message it is in. */
  index: number;
  /** The opening that must be present, whitespace collapsed. */
  head: string;
}

export function personMessages(messages: readonly Message[]): PersonMessage[] {
  return messages.flatMap((m, index) => {
    const text = realUserText(m);
    return text ? [{ index, head: normalize(text).slice(0, HEAD_CHARS) }] : [];
  });
}

/** The task and the latest person message before message `at` (the same one early on). */
export function wordsAt(people: readonly PersonMessage[], at: number): { task: PersonMessage; latest: PersonMessage } | null {
  const before = people.filter((p) => p.index < at);
  return before.length ? { task: before[0]!, latest: before.at(-1)! } : null;
}

export function normalize(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
