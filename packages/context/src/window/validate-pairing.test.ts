import { describe, expect, it } from "vitest";
import type { Message } from "../messages.js";
import { mixedTranscript } from "./test-support/mixed-transcript.js";
import { assistant, result, syntheticTranscript, use, user } from "./test-support/transcripts.js";
import { validatePairing } from "./validate-pairing.js";

const codes = (messages: Message[]): string[] => validatePairing(messages).map((p) => p.code);

describe("validatePairing", () => {
  it("accepts valid transcripts with parallel calls and mixed content", () => {
    expect(validatePairing(mixedTranscript())).toEqual([]);
    expect(validatePairing(syntheticTranscript({ seed: 9, turns: 12 }))).toEqual([]);
  });

  it("catches the reference loop's defect: a deleted tool_result message orphans its tool_use", () => {
    const history = mixedTranscript();
    const dexStyle = history.filter((_, i) => i !== 2); // drop the message holding t1's result
    expect(codes(dexStyle)).toEqual(expect.arrayContaining(["missing-tool-result", "same-role-adjacent"]));
  });

  it("reports every kind of broken pairing", () => {
    expect(codes([])).toEqual(["empty-conversation"]);
    expect(codes([assistant("hi")])).toContain("first-not-user");
    expect(codes([user("a"), assistant(use("x", "f")), user(result("y", "r"))])).toEqual(["missing-tool-result", "orphan-tool-result"]);
    expect(codes([user("a"), assistant(use("x", "f")), user(result("x", "r"), result("x", "r"))])).toEqual(["duplicate-tool-result"]);
    expect(codes([user("a"), assistant(use("x", "f")), user("text first", result("x", "r"))])).toEqual(["tool-result-after-text"]);
    expect(codes([user("a"), assistant(use("x", "f")), user(result("x", "r")), assistant(use("x", "f")), user(result("x", "r"))])).toEqual([
      "duplicate-tool-use-id",
    ]);
    expect(codes([user(use("x", "f"))])).toContain("tool-use-in-user");
    expect(codes([user("a"), { role: "assistant", content: [result("x", "r")] }])).toContain("tool-result-in-assistant");
    expect(codes([user("a"), { role: "assistant", content: [] }])).toContain("empty-message");
  });

  it("allows a trailing unanswered call only when asked to", () => {
    const pending = [user("a"), assistant(use("x", "f"))];
    expect(codes(pending)).toEqual(["missing-tool-result"]);
    expect(validatePairing(pending, { allowPendingToolUse: true })).toEqual([]);
  });
});
