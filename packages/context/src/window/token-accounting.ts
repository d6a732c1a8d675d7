import type { Message } from "../messages.js";
import { estimatePromptOverhead, estimateTokens, type EstimateOptions } from "./estimate-tokens.js";
import { fingerprintMessages } from "./fingerprint.js";

// Context size anchored on the API's own numbers. A response's usage says exactly how big its
// prompt was (input + cache read + cache write); only what was appended since has to be estimated,
// so estimator error stays bounded by the delta instead of growing with the whole history.

/** The usage fields that make up a prompt's size (structurally compatible with core's Usage). */
interface PromptUsage {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface UsageAnchor {
  /** Exact prompt size of the anchoring request. */
  promptTokens: number;
  /** How many messages that request carried. */
  messageCount: number;
  /**
   * Fingerprint of those messages: a different prefix (pruned, stubbed) invalidates the anchor.
   * Absent: the caller vouches for the prefix (it drops the anchor whenever it rewrites history).
   */
  prefixFingerprint?: string;
  /** Estimated system + tools at that time, to add only their change later. */
  overheadEstimate: number;
}

export interface AnchorInput {
  usage: PromptUsage;
  /** The exact messages of the request the usage belongs to. */
  messages: readonly Message[];
}

/** Builds the anchor from a response's usage; estimate carries that request's system and tools. */
export function anchorFromUsage(input: AnchorInput, estimate: EstimateOptions = {}): UsageAnchor {
  const { inputTokens, cacheReadTokens, cacheWriteTokens } = input.usage;
  return {
    promptTokens: inputTokens + cacheReadTokens + cacheWriteTokens,
    messageCount: input.messages.length,
    prefixFingerprint: fingerprintMessages(input.messages),
    overheadEstimate: estimatePromptOverhead(estimate),
  };
}

export interface ContextTokens {
  tokens: number;
  /** "anchored" when the anchor still matches the message prefix; "estimated" otherwise. */
  source: "anchored" | "estimated";
  /** Exact part (0 when estimated). */
  anchorTokens: number;
  /** Estimated part: messages since the anchor plus the system/tools change (or everything). */
  estimatedTokens: number;
}

/**
 * Current context size: anchor + estimate of messages appended since (+ the change in system prompt
 * and tools), or a full estimate (messages, system, tools) when there is no usable anchor.
 * estimate carries the current system prompt and tools.
 */
export function contextTokens(
  messages: readonly Message[],
  anchor: UsageAnchor | null | undefined,
  estimate: EstimateOptions = {},
): ContextTokens {
  if (anchor && anchorStillHolds(messages, anchor)) {
    const appended = estimateTokens(messages.slice(anchor.messageCount), { ...estimate, system: undefined, tools: undefined });
    const overheadDelta = estimatePromptOverhead(estimate) - anchor.overheadEstimate;
    const estimated = appended + overheadDelta;
    return {
      tokens: Math.max(0, anchor.promptTokens + estimated),
      source: "anchored",
      anchorTokens: anchor.promptTokens,
      estimatedTokens: estimated,
    };
  }
  const tokens = estimateTokens(messages, estimate);
  return { tokens, source: "estimated", anchorTokens: 0, estimatedTokens: tokens };
}

function anchorStillHolds(messages: readonly Message[], anchor: UsageAnchor): boolean {
  if (messages.length < anchor.messageCount) return false;
  if (anchor.prefixFingerprint === undefined) return true;
  return fingerprintMessages(messages.slice(0, anchor.messageCount)) === anchor.prefixFingerprint;
}
