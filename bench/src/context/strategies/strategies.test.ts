import { estimateTokens, toolResults, validatePairing, type Message } from "@hatloop/context";
import { replayOptions } from "../run-context.js";
import { describe, expect, it } from "vitest";
import { generateSession } from "../generator/index.js";
import type { BenchInput } from "../input.js";
import { replay } from "../replay.js";
import { benchSystemPrompt } from "../suite.js";
import { hatloop, hatloopStrategy } from "./hatloop.js";
import { STRATEGIES } from "./index.js";
import { MASKED, observationMasking } from "./observation-masking.js";
import { filterToolResponses } from "./reference-loop.js";

// A small window makes every strategy work on a short session.
const system = benchSystemPrompt();
const window = 40_000;
const ctx = { window, system, systemTokens: estimateTokens([], { system: [system] }), toolNames: [] };
const session = generateSession({ seed: 4, iterations: 80 });
const input: BenchInput = { name: "small-window", kind: "synthetic", messages: session.messages, facts: session.facts, window };

describe("the reference loop's removal (filterToolResponses)", () => {
  const turn = (i: number): Message[] => [
    { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read_file", input: { path: `f${i}` } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `out ${i}` }] },
  ];
  const messages: Message[] = [{ role: "user", content: "task" }, ...[0, 1, 2, 3, 4, 5].flatMap(turn)];

  it("drops whole tool-result messages from the middle outward, below the middle first", () => {
    const kept = (pct: number) => filterToolResponses(messages, pct).flatMap((m) => toolResults(m).map((r) => r.tool_use_id));
    expect(kept(0)).toEqual(["t0", "t1", "t2", "t3", "t4", "t5"]);
    expect(kept(10)).toEqual(["t0", "t1", "t3", "t4", "t5"]);
    expect(kept(50)).toEqual(["t0", "t4", "t5"]);
    expect(kept(100)).toEqual([]);
  });

  it("orphans the tool_use it leaves behind, which validatePairing reports", () => {
    const codes = validatePairing(filterToolResponses(messages, 10)).map((p) => p.code);
    expect(codes.sort()).toEqual(["missing-tool-result", "same-role-adjacent"]);
  });
});

describe("observation masking", () => {
  it("masks results older than the last 10 turns and keeps every action", async () => {
    const run = observationMasking.start(ctx);
    const request = await run.next(session.messages.slice(0, 2 * 30 + 1));
    const masked = request.flatMap(toolResults).filter((r) => r.content === MASKED);
    const assistants = request.filter((m) => m.role === "assistant");
    expect(assistants).toHaveLength(30);
    // Turns 1..20 are masked; the last 10 are not.
    const unmaskedFrom = request.findIndex((m, i) => i > 0 && m.role === "user" && toolResults(m).some((r) => r.content !== MASKED));
    expect(request.slice(unmaskedFrom - 1).filter((m) => m.role === "assistant").length).toBe(10);
    expect(masked.length).toBeGreaterThan(0);
    expect(validatePairing(request)).toEqual([]);
  });
});

describe("every strategy on a session that outgrows the window", () => {
  it("hatloop stays under the window with valid requests, and compacts", async () => {
    const result = await replay(input, hatloop, replayOptions(input));
    expect(result.callsOverWindow).toBe(0);
    expect(result.pairing.invalidRequests).toBe(0);
    expect(result.stats["compactions"]).toBeGreaterThan(0);
    expect(result.handoff.tokens).toBeLessThanOrEqual(800);
    expect(result.pathsFullHandoff!.present).toBe(result.pathsFullHandoff!.total);
  });

  it("raw overflows, middle-out-drop breaks pairing, the summarizers stay under their thresholds", async () => {
    const results = new Map<string, Awaited<ReturnType<typeof replay>>>();
    for (const s of STRATEGIES) results.set(s.name, await replay(input, s, replayOptions(input)));
    expect(results.get("raw")!.callsOverWindow).toBeGreaterThan(0);
    expect(results.get("middle-out-drop")!.pairing.codes["missing-tool-result"]).toBeGreaterThan(0);
    expect(results.get("keep-last-10")!.peakTokens).toBeLessThanOrEqual(window);
    for (const [name, pct] of [
      ["goose", 0.8],
      ["claude-code", 0.835],
      ["codex", 0.9],
    ] as const) {
      expect(results.get(name)!.peakTokens).toBeLessThan(pct * window + 5_000);
      expect(results.get(name)!.stats["summaries"]).toBeGreaterThan(0);
    }
  });

  it("is deterministic: a second run gives the same results except timings", async () => {
    const strip = (r: Awaited<ReturnType<typeof replay>>) => JSON.stringify({ ...r, timing: null });
    for (const s of STRATEGIES)
      expect(strip(await replay(input, s, replayOptions(input)))).toBe(strip(await replay(input, s, replayOptions(input))));
  });

  it("names a variant by its changed settings and rejects invalid ones", () => {
    expect(hatloopStrategy({ targetPct: 50 }).name).toBe("hatloop[targetPct=50]");
    expect(() => hatloopStrategy({ gaugePct: 95 })).toThrow();
  });
});
