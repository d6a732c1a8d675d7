import { estimateTokens, type Message } from "@hatloop/context";
import { replayOptions } from "./run-context.js";
import { describe, expect, it } from "vitest";
import { dropping, scripted } from "../test-support/strategies.js";
import { generateSession } from "./generator/index.js";
import type { BenchInput } from "./input.js";
import { replay } from "./replay.js";
import { raw } from "./strategies/raw.js";
import { benchSystemPrompt } from "./suite.js";

// The harness itself: what it counts must be what a strategy did.

const session = generateSession({ seed: 11, iterations: 40 });
const input: BenchInput = { name: "s", kind: "synthetic", messages: session.messages, facts: session.facts, window: 200_000 };

describe("planted-fact scoring", () => {
  it("scores a fact as missing when a strategy drops the message that plants it", async () => {
    const decision = session.facts.find((f) => f.id === "decision-2")!;
    const keeps = await replay(input, raw, replayOptions(input));
    // The decision is restated in later scratchpads, so drop every message that mentions it.
    const needle = decision.needles[0]!.toLowerCase();
    const drops = await replay(
      input,
      dropping("drop-decision", (m) => m.role === "assistant" && JSON.stringify(m).toLowerCase().includes(needle)),
      replayOptions(input),
    );
    expect(keeps.factsLive!.missing).not.toContain("decision-2");
    expect(drops.factsLive!.missing).toContain("decision-2");
    expect(drops.factsHandoff!.missing).toContain("decision-2");
    expect(drops.factsLive!.tally.P1.present).toBeLessThan(keeps.factsLive!.tally.P1.present);
    expect(drops.factsLive!.tally.P1.total).toBe(keeps.factsLive!.tally.P1.total);
  });

  it("shows a superseded value as stale when only the old value is kept", async () => {
    const fact = session.facts.find((f) => f.category === "superseded")!;
    const newNeedle = fact.needles[0]!.toLowerCase();
    const drops = await replay(
      input,
      dropping("drop-new-value", (m) => JSON.stringify(m).toLowerCase().includes(newNeedle)),
      replayOptions(input),
    );
    expect(drops.factsLive!.missing).toContain(fact.id);
    expect(drops.factsLive!.stale).toBeGreaterThanOrEqual(1);
  });

  it("only counts facts planted before each probe", async () => {
    const keeps = await replay(input, raw, replayOptions(input));
    // Four probes; the task's facts are eligible at each of them, the next step only at the last.
    expect(keeps.factsLive!.tally.P0.present).toBe(keeps.factsLive!.tally.P0.total);
    expect(keeps.factsLive!.tally.P0.total).toBeLessThan(4 * session.facts.filter((f) => f.priority === "P0").length);
  });
});

describe("pairing violations", () => {
  it("counts every request a pairing-breaking strategy sends", async () => {
    // Drops the user message answering the first assistant message: its tool_use is orphaned.
    const firstAnswer = session.messages.findIndex((m, i) => i > 0 && m.role === "user");
    const broken = await replay(
      input,
      dropping("orphans", (_, i) => i === firstAnswer),
      replayOptions(input),
    );
    const callsAfter = session.messages.slice(firstAnswer + 1).filter((m) => m.role === "assistant").length;
    expect(broken.pairing.invalidRequests).toBe(callsAfter);
    expect(broken.pairing.codes["missing-tool-result"]).toBeGreaterThanOrEqual(callsAfter);
    // The first of those requests ends with the orphaned call; from the next one on, two assistant messages meet.
    expect(broken.pairing.codes["same-role-adjacent"]).toBe(callsAfter - 1);
    const clean = await replay(input, raw, replayOptions(input));
    expect(clean.pairing).toEqual({ invalidRequests: 0, problems: 0, codes: {} });
  });
});

describe("the cache model", () => {
  it("prices a known sequence exactly (write 1.25x, read 0.1x; an identical prefix reads)", async () => {
    const text = (n: number, c: string): Message => ({ role: "user", content: [{ type: "text", text: c.repeat(n) }] });
    const reply: Message = { role: "assistant", content: [{ type: "text", text: "b".repeat(396) }] };
    const a = text(400, "a");
    const a2 = text(400, "z");
    const c = text(796, "c");
    // Each message: ceil(chars / 4) + 4 (message) + 3 (block) tokens.
    const tA = 107,
      tB = 106,
      tC = 206;
    expect(estimateTokens([a])).toBe(tA);
    expect(estimateTokens([reply])).toBe(tB);
    expect(estimateTokens([c])).toBe(tC);
    const S = estimateTokens([], { system: [benchSystemPrompt()] });
    const requests = [[a], [a, reply, c], [a2, reply, c]];
    const msgs: Message[] = [
      { role: "user", content: "task" },
      { role: "assistant", content: "1" },
      { role: "user", content: "u" },
      { role: "assistant", content: "2" },
      { role: "user", content: "v" },
      { role: "assistant", content: "3" },
    ];
    const known: BenchInput = { name: "known", kind: "transcript", messages: msgs, facts: null, window: 200_000 };
    const result = await replay(known, scripted(requests), replayOptions(known, { inputPricePerMTok: 3 }));
    // Call 1 writes S + A; call 2 reads S + A and writes B + C; call 3 changed its first message: reads S only.
    const write = S + tA + (tB + tC) + (tA + tB + tC);
    const read = S + tA + S;
    expect(result.totalInputTokens).toBe(write + read);
    expect(result.costUsd).toBeCloseTo(((write * 1.25 + read * 0.1) * 3) / 1e6, 12);
    expect(result.uncachedCostUsd).toBeCloseTo(((write + read) * 3) / 1e6, 12);
    expect(result.cacheReadShare).toBeCloseTo(read / (write + read), 12);
    expect(result.peakTokens).toBe(S + tA + tB + tC);
  });
});
