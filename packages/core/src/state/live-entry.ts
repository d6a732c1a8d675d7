import type { Message } from "@hatloop/context";
import type { MessageKind } from "../store/port.js";

// The live context is a list of entries, each referring to a stored message (what the next request
// sends, in order). Entries a compaction or a step creates have seq null until the write path stores
// them; the state only ever holds stored ones.

export interface LiveEntry {
  seq: number | null;
  message: Message;
  kind: "conversation" | "injected";
}

/** A message the write path is to store, as the change that brings it says. */
export interface FreshMessage {
  message: Message;
  kind: MessageKind;
}

/** A message as stored: its seq, and the message as the store holds it (secrets redacted). */
export interface StoredEntry {
  seq: number;
  message: Message;
  kind: MessageKind;
}
