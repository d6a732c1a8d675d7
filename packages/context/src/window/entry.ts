import type { Message } from "../messages.js";

// The window functions take the caller's entries and give back the entries themselves (kept,
// dropped), so a caller never rejoins its own records by a position computed here.

/** What the window functions need of a caller's entry; they hand the entry itself back. */
export interface WindowEntry {
  message: Message;
  /** Stored sequence number of the message, named in the stubs of its results (null or absent: none yet). */
  seq?: number | null;
}

/** A message of a shrunk history and the entry it came from. */
export type KeptEntry<T> = SameEntry<T> | RewrittenEntry<T>;

/** The entry itself: its message, perhaps with results stubbed (which the frozen ids re-derive). */
export interface SameEntry<T> {
  entry: T;
  message: Message;
  rewritten: false;
}

/** A message that no longer equals a stored one: the caller stores it as a message of its own. */
interface RewrittenEntry<T> {
  /** The entry it was cut from (leading results, or a result too big to fit); null when compaction wrote it. */
  entry: T | null;
  message: Message;
  rewritten: true;
}

export function messagesOf(kept: readonly KeptEntry<unknown>[]): Message[] {
  return kept.map((k) => k.message);
}

/** Kept entries re-keyed: each entry (never a written message's null) mapped by `to`. */
export function rekey<A, B>(kept: readonly KeptEntry<A>[], to: (entry: A) => B): KeptEntry<B>[] {
  return kept.map((k) =>
    k.rewritten
      ? { entry: k.entry === null ? null : to(k.entry), message: k.message, rewritten: true }
      : { entry: to(k.entry), message: k.message, rewritten: false },
  );
}
