import { validatePairing, toolResults } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config.js";
import { runFixture, fakeTool, type Turn } from "../test-support/loop-fixture.js";
import type { Tool } from "../ports/tools.js";
import { ModelError, type ModelPort } from "../ports/model.js";
import { describeEvent } from "../text/describe-event.js";
import { LoopControl } from "../loop/control.js";

// A loop long enough to cross 80% and 90% of a small window, with bulky tool results: the guard's
// zones at work, so the cost policy is off here ("zones"); policy.test.ts and the last test cover it.

const zones = { context: { ...defaultConfig().context, policy: "zones" as const } };

const fileBody = (n: number) =>
  `// file ${n}\n${Array.from({ length: 40 }, (_, i) => `export const value${n}_${i} = ${i}; // padding line for bulk ${"x".repeat(20)}`).join("\n")}${n === 2 ? "\n// the zebra constant lives here" : ""}`;

/** Each turn reads a file; `thinking` adds prose the model writes, which stubs cannot shrink. */
function turns(n: number, thinking = 0): Turn[] {
  return Array.from({ length: n }, (_, i) => ({
    text: `Reading file ${i}. ${"Reasoning about the module layout. ".repeat(thinking)}`,
    tools: [{ name: "read_file", input: { path: `src/f${i}.ts` } }],
  }));
}

describe("context management in the loop", () => {
  it("warns, checkpoints, removes, prunes, stays under target, and loses nothing", async () => {
    const read = fakeTool("read_file", (input) => ({ isError: false, content: fileBody(Number(String(input.path).match(/\d+/)![0])) }));
    // The real recall service, as the tools package's recall tool uses it.
    const recallTool: Tool = {
      spec: { name: "recall", description: "recall", inputSchema: { type: "object" } },
      run: async (input, context) => {
        const hits = await context.services.recall(String(input.query), 5);
        return { isError: false, content: hits.map((h) => `#${h.seq}: ${h.text}`).join("\n") };
      },
    };
    const run = await runFixture({
      turns: [...turns(60, 30), { tools: [{ name: "recall", input: { query: "zebra" } }] }],
      tools: [read, recallTool],
      contextWindow: 20_000,
      maxIterations: 61,
      session: { hat: "creator" },
      config: zones,
    });
    const checkpoints = run.of("checkpoint.saved").map((e) => e.data.reason);
    const compactions = run.of("context.compacted");
    const strategies = compactions.map((e) => e.data.strategy);
    expect(checkpoints).toContain("warn-threshold");
    expect(strategies[0]).toBe("removal");
    expect(strategies.some((s) => s.startsWith("pruning"))).toBe(true);
    // One compaction per pressure episode: never two iterations in a row.
    const iterations = compactions.map((e) => e.iteration);
    expect(iterations.every((it, i) => i === 0 || it - iterations[i - 1]! > 1)).toBe(true);
    // Each compaction lands under 80% of the compaction threshold (90% of the window).
    for (const c of compactions) expect(c.data.tokensAfter).toBeLessThan(20_000 * 0.9 * 0.8);
    // The requests the model saw stayed valid and never exceeded the window.
    for (const request of run.model.requests) {
      expect(validatePairing(request.messages)).toEqual([]);
      expect(JSON.stringify(request.messages).length / 4).toBeLessThan(20_000);
    }
    // Every stored message is still there: 1 task + 2 per iteration + injected packets.
    const conversation = run.messages.filter((m) => m.kind === "conversation");
    expect(conversation.length).toBe(1 + 2 * 61);
    expect(JSON.stringify(run.messages)).toContain("the zebra constant lives here");
    // The live context no longer shows file 2, but recall finds it by a word in it.
    const lastRequest = JSON.stringify(run.model.requests.at(-1)!.messages);
    expect(lastRequest).toContain("[tool result removed from context");
    const f2Result = run.model.requests
      .at(-1)!
      .messages.flatMap((m) => toolResults(m))
      .find((r) => r.tool_use_id === "toolu_3_0");
    expect(f2Result === undefined || String(f2Result.content).startsWith("[tool result removed from context")).toBe(true);
    const recalled = run.messages.at(-1)!.message;
    expect(JSON.stringify(toolResults(recalled)[0]!.content)).toContain("the zebra constant lives here");
    expect(run.messages.filter((m) => JSON.stringify(m.message).includes("Context compacted (")).length).toBeGreaterThan(0);
    expect(run.session.scratchpad).toContain("## Compacted History");
  });

  it("says on the compaction event and its printed line why the mechanical summary stood in for the model's", async () => {
    const read = fakeTool("read_file", (input) => ({ isError: false, content: fileBody(Number(String(input.path).match(/\d+/)![0])) }));
    const down: ModelPort = { complete: () => Promise.reject(new ModelError("overloaded_error: Overloaded", 529)) };
    const run = await runFixture({
      turns: turns(30, 30),
      tools: [read],
      contextWindow: 20_000,
      maxIterations: 30,
      session: { hat: "creator" },
      config: { context: { ...zones.context, llmSummary: true, maxStubs: 1 } }, // pruning comes early
      summarizer: { model: down, summaryModel: "small" },
    });
    const pruned = run.of("context.compacted").filter((e) => e.data.strategy.startsWith("pruning"));
    expect(pruned.length).toBeGreaterThan(0);
    for (const event of pruned) {
      expect(event.data).toMatchObject({ strategy: "pruning+mechanical-summary", summaryFallback: "overloaded_error: Overloaded" });
      expect(describeEvent(event)).toMatch(
        /^ {3}context compacted \(pruning\+mechanical-summary, .*\(mechanical summary: overloaded_error: Overloaded\)$/,
      );
    }
  });

  it("shows the gauge line to the model from 70% with 'Checkpoint saved' after the warn checkpoint", async () => {
    const read = fakeTool("read_file", (input) => ({ isError: false, content: fileBody(Number(String(input.path).match(/\d+/)![0])) }));
    const run = await runFixture({
      turns: turns(22),
      tools: [read],
      contextWindow: 20_000,
      maxIterations: 22,
      session: { hat: "creator" },
      config: zones,
    });
    const gauges = run.messages.flatMap((m) => JSON.stringify(m.message).match(/\[Context: \d+% \| \d+k\/20k tokens[^\]]*\]/g) ?? []);
    expect(gauges.length).toBeGreaterThan(0);
    expect(gauges.some((g) => g.endsWith("| Checkpoint saved]"))).toBe(true);
    expect(run.of("context.gauge").some((e) => e.data.zone === "warn")).toBe(true);
  });

  it("under the balanced policy, compacts at the cheapest size, long before the zones, and keeps what it should", async () => {
    const read = fakeTool("read_file", (input) => ({ isError: false, content: fileBody(Number(String(input.path).match(/\d+/)![0])) }));
    const run = await runFixture({
      turns: turns(60),
      tools: [read],
      contextWindow: 100_000,
      maxIterations: 60,
      session: { hat: "creator" },
    });
    const compactions = run.of("context.compacted");
    expect(compactions.length).toBeGreaterThan(0);
    // Far below the 90% zone (the cost model's trigger is about 50k here), down to the policy's 25%
    // by removing no more tool results than that takes: the newest stay whole.
    for (const c of compactions) {
      expect(c.data.tokensBefore).toBeLessThan(70_000);
      expect(c.data.tokensAfter).toBeLessThan(25_000);
    }
    // The first is middle-out removal alone, just enough of it (later ones prune once stubs pile up).
    expect(compactions[0]!.data).toMatchObject({ strategy: "removal" });
    expect(compactions[0]!.data.level).toBeLessThan(100);
    expect(compactions[0]!.data.tokensAfter).toBeGreaterThan(20_000);
    const last = run.model.requests.at(-1)!.messages.flatMap(toolResults);
    expect(String(last.at(-1)!.content)).toContain("// file");
    expect(run.of("context.gauge").some((e) => e.data.zone === "warn" || e.data.zone === "compact")).toBe(false);
    for (const request of run.model.requests) expect(validatePairing(request.messages)).toEqual([]);
  });

  it("keeps the task in every request when it is the only thing the person said, through many prunings", async () => {
    const read = fakeTool("read_file", (input) => ({ isError: false, content: fileBody(Number(String(input.path).match(/\d+/)![0])) }));
    const run = await runFixture({
      turns: turns(120, 10),
      tools: [read],
      contextWindow: 20_000,
      maxIterations: 120,
      session: { hat: "creator" },
    });
    expect(run.of("context.compacted").filter((e) => e.data.strategy.startsWith("pruning")).length).toBeGreaterThan(2);
    const task = JSON.stringify(run.session.task).slice(1, -1);
    run.model.requests.forEach((request, k) => expect(JSON.stringify(request.messages), `request ${k}`).toContain(task));
  });

  it("keeps the task and every steering message in every request, through compactions that leave them anywhere", async () => {
    const read = fakeTool("read_file", (input) => ({ isError: false, content: fileBody(Number(String(input.path).match(/\d+/)![0])) }));
    const steer = "Keep the exported names stable: downstream packages import them.";
    const control = new LoopControl();
    const script = turns(80, 10).map((t, i) => (i === 5 ? { ...t, before: () => control.steer(steer) } : t));
    const run = await runFixture({
      turns: script,
      tools: [read],
      control,
      contextWindow: 20_000,
      maxIterations: 80,
      session: { hat: "creator" },
    });
    expect(run.of("context.compacted").filter((e) => e.data.strategy.startsWith("pruning")).length).toBeGreaterThan(1);
    const task = run.session.task;
    run.model.requests.forEach((request, k) => {
      const text = JSON.stringify(request.messages);
      expect(text, `request ${k}`).toContain(JSON.stringify(task).slice(1, -1));
      if (k > 7) expect(text, `request ${k}`).toContain(steer);
    });
  });
});
