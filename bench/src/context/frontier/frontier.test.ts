import { describe, expect, it } from "vitest";
import type { InputResult, StrategyResult } from "../result.js";
import { sessionVerdict } from "./frontier.js";
import { frontierSvg } from "./frontier-plot.js";
import { goalsApart, peerFrontier, renderVerdicts } from "./frontier-report.js";

// The verdict says what the figures say: who is cheaper and keeps more, and how hatloop stands
// against Claude Code's default.

function strategy(
  name: string,
  cost: number,
  kept: number,
  stats: Record<string, number> = {},
  costs?: { ttl5mUsd: number; ttl1hUsd: number },
  sendAll: { peak: number; until: number[] } = { peak: 50, until: [cost, cost, cost, cost] },
): StrategyResult {
  return {
    strategy: name,
    peakPctOfWindow: sendAll.peak,
    costUntil: [50, 60, 70, 80].map((pctOfWindow, k) => ({ pctOfWindow, usd: sendAll.until[k]! })),
    costUsd: cost,
    costs: { warmUsd: cost, ttl5mUsd: costs?.ttl5mUsd ?? cost, ttl1hUsd: costs?.ttl1hUsd ?? cost * 1.1, oneHourRequests: 0 },
    callsOverWindow: 0,
    pairing: { invalidRequests: 0, problems: 0, codes: {} },
    stats,
    continuity: {
      needs: { present: kept, total: 100, recallable: name === "hatloop" ? 100 - kept : null },
      person: { calls: 10, task: 10, latest: 10, missingLatestAtCalls: [] },
      decisions: null,
      noise: null,
    },
    pathsHandoff: { present: 3, total: 3, missing: [] },
  } as unknown as StrategyResult;
}

function input(strategies: StrategyResult[], name = "s"): InputResult {
  return {
    input: name,
    kind: "transcript",
    calls: 10,
    needs: { calls: 5, items: 100 },
    time: { timed: true, gapsOver5m: 0, gapsOver1h: 0 },
    strategies,
  } as unknown as InputResult;
}

describe("sessionVerdict", () => {
  it("finds the peer settings both cheaper and keeping more, and the cheapest that keeps as much", () => {
    const v = sessionVerdict(
      input([
        strategy("raw", 10, 100),
        strategy("claude-code", 10, 100),
        strategy("claude-code@25%", 4, 95, { summaries: 3 }),
        strategy("claude-code@15%", 3, 70, { summaries: 5 }),
        strategy("hatloop", 5, 90, { compactions: 4 }),
      ]),
    )!;
    expect(v.dominating.map((p) => p.strategy)).toEqual(["claude-code@25%"]);
    expect(v.cheapestAsGood?.strategy).toBe("claude-code@25%");
    expect(v.claudeCodeCheck).toMatchObject({ peerCompacts: false, keepsAsMuch: false, costOk: true });
    expect(v.hatloop.keptOrRecallable).toBe(1);
    expect(renderVerdicts([v], [])).toContain("claude-code@25% $4.00 95.0% cost less and keep more than hatloop");
    expect(peerFrontier(v.points.filter((p) => p.family !== "hatloop")).map((p) => p.strategy)).toEqual([
      "claude-code@15%",
      "claude-code@25%",
      "raw",
    ]);
    expect(frontierSvg([v])).toContain("<svg");
  });

  it("prices a peer at its cheaper TTL and holds hatloop to half Claude Code's cost where that peer compacts", () => {
    const v = sessionVerdict(
      input([
        strategy("raw", 20, 100, {}, { ttl5mUsd: 20, ttl1hUsd: 16 }),
        strategy("claude-code", 12, 90, { summaries: 1 }, { ttl5mUsd: 12, ttl1hUsd: 10 }),
        strategy("hatloop", 5.5, 92, { compactions: 4 }),
      ]),
    )!;
    expect(v.claudeCode.costUsd).toBe(10);
    expect(v.raw.costUsd).toBe(16);
    expect(v.claudeCodeCheck).toMatchObject({ peerCompacts: true, keepsAsMuch: true, costOk: false });
    expect(v.dominating).toEqual([]);
    expect(renderVerdicts([v], [])).toContain("hatloop costs 0.55x Claude Code's default, which compacts here");
  });

  it("shows where keeping all on the sessions that fit costs more than half of Claude Code where it compacts", () => {
    const fits = sessionVerdict(
      input(
        [
          strategy("raw", 8, 100, {}, undefined, { peak: 72.5, until: [3, 5, 8, 8] }),
          strategy("claude-code", 8, 100),
          strategy("hatloop", 4, 90, { compactions: 2 }),
        ],
        "fits",
      ),
    )!;
    const grows = (name: string, until: number[]) =>
      sessionVerdict(
        input(
          [
            strategy("raw", 30, 100, {}, undefined, { peak: 150, until }),
            strategy("claude-code", 10, 95, { summaries: 2 }),
            strategy("hatloop", 7, 95, { compactions: 3 }),
          ],
          name,
        ),
      )!;
    const text = goalsApart([fits, grows("long", [2, 4, 6, 9]), grows("short", [1, 2, 3, 4])]);
    expect(text).toContain("peaks at 72.5% of the window");
    expect(text).toContain("| `long` | 0.20x | 0.40x | 0.60x | 0.90x |");
    expect(text).toContain("Up to 70% it is more than 0.5x on 1 of 2 (`long`)");
    expect(goalsApart([fits])).toBe("");
  });
});
