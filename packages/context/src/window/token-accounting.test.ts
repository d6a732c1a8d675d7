import { describe, expect, it } from "vitest";
import { estimateTokens } from "./estimate-tokens.js";
import { filterToolResponses } from "./filter-tool-responses.js";
import { assistant, result, syntheticTranscript, use, user } from "./test-support/transcripts.js";
import { anchorFromUsage, contextTokens } from "./token-accounting.js";

const usage = { inputTokens: 1_000, cacheReadTokens: 40_000, cacheWriteTokens: 2_000 };

describe("anchored token accounting", () => {
  const sent = syntheticTranscript({ seed: 5, turns: 4 });
  const anchor = anchorFromUsage({ usage, messages: sent });

  it("takes input + cache read + cache write as the exact prompt size", () => {
    expect(anchor.promptTokens).toBe(43_000);
    expect(anchor.messageCount).toBe(sent.length);
    expect(contextTokens(sent, anchor)).toEqual({ tokens: 43_000, source: "anchored", anchorTokens: 43_000, estimatedTokens: 0 });
  });

  it("adds only the estimate of messages appended since", () => {
    const appended = [assistant("Reading it.", use("new1", "read_file", { path: "a.ts" })), user(result("new1", "x".repeat(4_000)))];
    const now = contextTokens([...sent, ...appended], anchor);
    expect(now.source).toBe("anchored");
    expect(now.tokens).toBe(43_000 + estimateTokens(appended));
  });

  it("adds the change in system prompt and tools", () => {
    const withSystem = anchorFromUsage({ usage, messages: sent }, { system: "s".repeat(4_000) });
    const grown = contextTokens(sent, withSystem, { system: "s".repeat(8_000) });
    expect(grown.tokens).toBe(43_000 + 1_000);
    expect(contextTokens(sent, withSystem, { system: "s".repeat(4_000) }).tokens).toBe(43_000);
  });

  it("falls back to a full estimate without an anchor or when the prefix changed", () => {
    expect(contextTokens(sent, null)).toEqual({
      tokens: estimateTokens(sent),
      source: "estimated",
      anchorTokens: 0,
      estimatedTokens: estimateTokens(sent),
    });
    const stubbed = filterToolResponses(sent, 50);
    expect(contextTokens(stubbed, anchor).source).toBe("estimated");
    expect(contextTokens(sent.slice(0, -2), anchor).source).toBe("estimated");
    const trusted = { ...anchor, prefixFingerprint: undefined };
    expect(contextTokens(stubbed, trusted).source).toBe("anchored"); // the caller vouches for the prefix
    expect(contextTokens(sent.slice(0, -2), trusted).source).toBe("estimated");
    const withSystem = contextTokens(sent, undefined, { system: "abcd".repeat(100) });
    expect(withSystem.tokens).toBe(estimateTokens(sent, { system: "abcd".repeat(100) }));
  });
});
