import type { Message } from "../messages.js";
import { costParts, type EstimateOptions } from "./estimate-tokens.js";

// Calibration: the caller measures a request exactly (the SDK's count_tokens call, or a response's
// usage) and derives the chars-per-token ratio that would have predicted it. Code and JSON tokenize
// denser than prose, so a session's own ratio beats the generic 4.

const CHARS_PER_TOKEN_BOUNDS = { min: 1, max: 8 } as const;

export interface CalibrationSample {
  messages: readonly Message[];
  /** The exact input tokens of exactly these messages (+ system and tools in opts). */
  measuredTokens: number;
}

/**
 * The chars-per-token ratio that makes estimateTokens(sample.messages, opts) equal the measured
 * count, clamped to CHARS_PER_TOKEN_BOUNDS. Returns opts' current ratio (or 4) when the sample
 * carries too little text to say anything (fewer than 400 characters).
 */
export function calibrateCharsPerToken(sample: CalibrationSample, opts: EstimateOptions = {}): number {
  const current = opts.charsPerToken ?? 4;
  const { chars, fixedTokens } = costParts(sample.messages, opts);
  const textTokens = sample.measuredTokens - fixedTokens;
  if (chars < 400 || textTokens <= 0) return current;
  const ratio = chars / textTokens;
  return Math.min(CHARS_PER_TOKEN_BOUNDS.max, Math.max(CHARS_PER_TOKEN_BOUNDS.min, ratio));
}
