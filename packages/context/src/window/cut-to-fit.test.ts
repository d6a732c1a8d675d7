import { describe, expect, it } from "vitest";
import { toolResultText, type Message } from "../messages.js";
import { cutToFit } from "./cut-to-fit.js";
import { messagesOf } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { idsOf, keyed } from "./test-support/keyed.js";
import { validatePairing } from "./validate-pairing.js";

const huge = "line of output\n".repeat(20_000); // 300k characters, ~75k tokens
const history: Message[] = [
  { role: "user", content: "read the log" },
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "big.log" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: huge }] },
];
const estimate = (m: readonly Message[]) => estimateTokens(m);

describe("cutToFit", () => {
  it("cuts the largest tool result, head and tail kept, until the estimate fits", () => {
    const entries = keyed(history);
    const out = cutToFit(entries, 10_000, estimate);
    const messages = messagesOf(out.kept);
    expect(out.tokensAfter).toBeLessThanOrEqual(10_000);
    expect(out.kept.map((k) => k.entry)).toEqual(entries);
    expect(idsOf(out.kept.flatMap((k) => (k.rewritten && k.entry ? [k.entry] : [])))).toEqual([2]);
    expect(messages.slice(0, 2)).toEqual(history.slice(0, 2));
    const text = toolResultText((messages[2]!.content as Array<{ type: "tool_result" } & Parameters<typeof toolResultText>[0]>)[0]!);
    expect(text.startsWith("line of output")).toBe(true);
    expect(text).toMatch(/\[hatloop cut: \d+ of 300000 characters cut to fit/);
    expect(validatePairing(messages)).toEqual([]);
    expect(history[2]!.content).not.toBe(messages[2]!.content); // the input is not mutated
  });

  it("leaves a request that fits alone, and gives up without looping when nothing can be cut", () => {
    const untouched = (out: ReturnType<typeof cutToFit>): boolean => out.kept.every((k) => !k.rewritten);
    expect(untouched(cutToFit(keyed(history), 100_000, estimate))).toBe(true);
    const words: Message[] = [{ role: "user", content: "x".repeat(100_000) }];
    const stuck = cutToFit(keyed(words), 1_000, estimate);
    expect(untouched(stuck)).toBe(true);
    expect(stuck.tokensAfter).toBe(estimate(words));
  });
});
