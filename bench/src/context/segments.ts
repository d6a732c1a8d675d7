import { estimateTokens, fingerprintText, messageSegments, type Message, type PromptSegment } from "@hatloop/context";

// Prompt segments for the cache model (one per message, after one for the system prompt and tools),
// memoised per message object: strategies reuse unchanged messages, so each is fingerprinted once.

export class SegmentCache {
  private readonly cache = new WeakMap<Message, PromptSegment>();
  readonly system: PromptSegment;

  constructor(system: string) {
    this.system = { fingerprint: `system:${fingerprintText(system)}`, tokens: estimateTokens([], { system: [system] }) };
  }

  /** The request as the cache sees it: system + tools, then each message. */
  request(messages: readonly Message[]): PromptSegment[] {
    return [this.system, ...messages.map((m) => this.of(m))];
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
