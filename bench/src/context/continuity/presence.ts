import type { Message } from "@hatloop/context";
import { searchableText } from "../../util/message-text.js";
import type { TranscriptText } from "./needs.js";
import { normalize } from "./person.js";

// Whether a request holds an item: a message sent unchanged (the transcript's own, by content)
// holds it when the transcript says so; any other message (a summary, a stub, a packet, a message
// the loop wrote) is searched. Memoised per message object, as strategies reuse their messages.

export class RequestText {
  private readonly texts = new WeakMap<Message, string>();
  private readonly flat = new WeakMap<Message, string>();
  private readonly sets = new Map<string, Set<number>>();

  constructor(
    private readonly transcript: TranscriptText,
    /** The transcript index of a message sent unchanged, else null. */
    private readonly originalOf: (message: Message) => number | null,
  ) {}

  holds(request: readonly Message[], item: string): boolean {
    let occurs = this.sets.get(item);
    if (!occurs) this.sets.set(item, (occurs = new Set(this.transcript.occurrences(item))));
    for (const message of request) {
      const original = this.originalOf(message);
      if (original !== null ? occurs.has(original) : this.text(message).includes(item)) return true;
    }
    return false;
  }

  /** Whether a message of the request holds `head` (whitespace collapsed, as person.ts gives it). */
  holdsText(request: readonly Message[], head: string): boolean {
    return request.some((m) => this.flatText(m).includes(head));
  }

  private flatText(message: Message): string {
    let text = this.flat.get(message);
    if (text === undefined) this.flat.set(message, (text = normalize(this.text(message))));
    return text;
  }

  /** The text of a message, whitespace as sent. */
  text(message: Message): string {
    let text = this.texts.get(message);
    if (text === undefined) this.texts.set(message, (text = searchableText([message])));
    return text;
  }
}
