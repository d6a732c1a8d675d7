import { describe, expect, it } from "vitest";
import type { Message } from "../messages.js";
import { calibrateCharsPerToken } from "./calibrate.js";
import { estimatePromptOverhead, estimateTokens } from "./estimate-tokens.js";
import { assistant, result, syntheticTranscript, use, user } from "./test-support/transcripts.js";

const zeroOverhead = { blockOverhead: 0, messageOverhead: 0 };

describe("estimateTokens", () => {
  it("counts text at the chars-per-token ratio plus per-message and per-block overhead", () => {
    expect(estimateTokens([user("x".repeat(400))], zeroOverhead)).toBe(100);
    expect(estimateTokens([user("x".repeat(400))], { charsPerToken: 2, ...zeroOverhead })).toBe(200);
    // one message (4) + one block (3) + 100
    expect(estimateTokens([user("x".repeat(400))])).toBe(107);
  });

  it("counts tool_use inputs, which the reference loop counted as zero", () => {
    const big = assistant(use("t1", "write_file", { path: "a.ts", content: "y".repeat(20_000) }));
    const small = assistant(use("t1", "write_file", { path: "a.ts", content: "" }));
    expect(estimateTokens([big]) - estimateTokens([small])).toBe(5_000);
    expect(estimateTokens([assistant(use("t1", "git_status"))], zeroOverhead)).toBeGreaterThan(0);
  });

  it("counts tool results given as a string or as blocks, and images at a fixed cost", () => {
    const asString = user(result("t1", "z".repeat(800)));
    const asBlocks = user(result("t1", [{ type: "text", text: "z".repeat(800) }]));
    expect(estimateTokens([asString])).toBe(estimateTokens([asBlocks]));
    const withImage = user(
      result("t1", [
        { type: "text", text: "z".repeat(800) },
        { type: "image", source: { type: "url", url: "u" } },
      ]),
    );
    expect(estimateTokens([withImage]) - estimateTokens([asBlocks])).toBe(1_600);
    const image: Message = {
      role: "user",
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "A".repeat(90_000) } }],
    };
    expect(estimateTokens([image], { imageTokens: 1_000, ...zeroOverhead })).toBe(1_000); // base64 size is not text
  });

  it("adds the system prompt and tool specs when given", () => {
    const base = estimateTokens([user("hi")]);
    const withSystem = estimateTokens([user("hi")], {
      system: ["s".repeat(4_000)],
      tools: [{ name: "read_file", description: "d".repeat(400) }],
    });
    const overhead = estimatePromptOverhead({ system: ["s".repeat(4_000)], tools: [{ name: "read_file", description: "d".repeat(400) }] });
    expect(Math.abs(withSystem - base - overhead)).toBeLessThanOrEqual(1); // one rounding over the whole prompt
    expect(withSystem - base).toBeGreaterThan(1_100);
  });

  it("is deterministic and never mutates its input", () => {
    const history = syntheticTranscript({ seed: 3, turns: 5 });
    const copy = structuredClone(history);
    expect(estimateTokens(history)).toBe(estimateTokens(structuredClone(history)));
    expect(history).toEqual(copy);
  });

  it("rejects a non-positive ratio", () => {
    expect(() => estimateTokens([user("x")], { charsPerToken: 0 })).toThrow(RangeError);
  });
});

describe("calibrateCharsPerToken", () => {
  it("derives the ratio that reproduces a measured count", () => {
    const messages = [user("a".repeat(3_000)), assistant("b".repeat(3_000))];
    const fixed = estimateTokens(messages, { charsPerToken: 1e9 }) - 1; // overheads only
    const ratio = calibrateCharsPerToken({ messages, measuredTokens: 2_000 + fixed });
    expect(ratio).toBe(3);
    expect(estimateTokens(messages, { charsPerToken: ratio })).toBe(2_000 + fixed);
  });

  it("keeps the current ratio for tiny samples and clamps absurd ones", () => {
    expect(calibrateCharsPerToken({ messages: [user("short")], measuredTokens: 50 }, { charsPerToken: 3.5 })).toBe(3.5);
    expect(calibrateCharsPerToken({ messages: [user("a".repeat(10_000))], measuredTokens: 20 })).toBe(8);
  });
});
