import { estimateTokens, fingerprintText, messageSegments, type Message, type PromptSegment } from "@hatloop/context";

// Prompt segments for the cache model (one per message, after one for the system prompt and tools),
// memoised per message object: strategies reuse unchanged messages, so each is fingerprinted once.
// The same fingerprints tell which messages of a request are the transcript's own, sent unchanged.

export class SegmentCache {
  private readonly cache = new WeakMap<Message, PromptSegment>();
  private readonly originals = new Map<string, number>();
  readonly system: PromptSegment;

  constructor(system: string, transcript: readonly Message[] = []) {
    this.system = { fingerprint: `system:${fingerprintText(system)}`, tokens: estimateTokens([], { system: [system] }) };
    transcript.forEach((m, i) => {
      const fingerprint = this.of(m).fingerprint;
      if (!this.originals.has(fingerprint)) this.originals.set(fingerprint, i);
    });
  }

  /** The request as the cache sees it: system + tools, then each message. */
  request(messages: readonly Message[]): PromptSegment[] {
    return [this.system, ...messages.map((m) => this.of(m))];
  }

  /** The transcript index of a message with the same content, or null: the strategy wrote it. */
  originalOf(message: Message): number | null {
    return this.originals.get(this.of(message).fingerprint) ?? null;
  }

  private of(message: Message): PromptSegment {
    let segment = this.cache.get(message);
    if (!segment) {
      segment = messageSegments([message])[0]!;
      this.cache.set(message, segment);
    }
    return segment;
  }
}

export function segmentTokens(segments: readonly PromptSegment[]): number {
  return segments.reduce((n, s) => n + s.tokens, 0);
}
