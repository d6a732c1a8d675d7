import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { dropping } from "../../test-support/strategies.js";
import { dumpSink } from "../dump.js";
import type { BenchInput } from "../input.js";
import { replay } from "../replay.js";
import { replayOptions } from "../run-context.js";
import { raw } from "../strategies/raw.js";
import { noiseKind, scoreNoise } from "./decision-noise.js";
import { scoreDecisions } from "./decisions.js";
import { itemsOf } from "./items.js";

// The continuity scores: each must see what a strategy really dropped.

const call = (id: string, name: string, input: Record<string, unknown>, text = ""): Message => ({
  role: "assistant",
  content: [...(text ? [{ type: "text" as const, text }] : []), { type: "tool_use" as const, id, name, input }],
});
const result = (id: string, content: string): Message => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] });

/** The task; a read whose result names parseConfigFile; four unrelated turns; a person's request; an edit that uses it. */
function session(): Message[] {
  const messages: Message[] = [
    { role: "user", content: "Make the config loader strict." },
    call("t0", "read_file", { path: "src/config.ts" }),
    result("t0", "export function parseConfigFile(path) { return JSON.parse(read(path)); }"),
  ];
  for (let i = 1; i <= 4; i++) messages.push(call(`t${i}`, "run_command", { command: `echo step ${i}` }), result(`t${i}`, `step ${i}`));
  messages.push(call("t5", "run_command", { command: "echo done" }), {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "t5", content: "done" },
      { type: "text", text: "Also reject unknown keys." },
    ],
  });
  messages.push(
    call("t6", "edit_file", { path: "src/config.ts", old: "parseConfigFile(path)", new: "parseConfigFile(path, { strict: true })" }),
  );
  messages.push(result("t6", "ok"));
  return messages;
}

const input = (messages: Message[], times?: (number | null)[]): BenchInput => ({
  name: "tiny",
  kind: "transcript",
  messages,
  facts: null,
  window: 200_000,
  ...(times ? { times } : {}),
});

describe("need retention", () => {
  it("counts an item the agent uses from old context, and misses it when a strategy dropped its source", async () => {
    const messages = session();
    const kept = await replay(input(messages), raw, replayOptions(input(messages)));
    const dropped = await replay(
      input(messages),
      dropping("drop-read", (_, i) => i === 2),
      replayOptions(input(messages)),
    );
    expect(kept.continuity.needs.total).toBeGreaterThan(0);
    expect(kept.continuity.needs.present).toBe(kept.continuity.needs.total);
    expect(dropped.continuity.needs.total).toBe(kept.continuity.needs.total);
    expect(dropped.continuity.needs.present).toBeLessThan(dropped.continuity.needs.total);
  });

  it("extracts paths, identifiers and quoted strings, not plain words", () => {
    const items = itemsOf('Edit src/config.ts so parseConfigFile and MAX_RETRIES match "connection refused", then run the tests again');
    expect([...items]).toEqual(expect.arrayContaining(["src/config.ts", "parseConfigFile", "MAX_RETRIES", "connection refused"]));
    expect(items.has("tests")).toBe(false);
    expect(items.has("again")).toBe(false);
  });
});

describe("the person's words", () => {
  it("checks the task and the latest request in every request after them", async () => {
    const messages = session();
    const kept = await replay(input(messages), raw, replayOptions(input(messages)));
    const noTask = await replay(
      input(messages),
      dropping("drop-task", (_, i) => i === 0),
      replayOptions(input(messages)),
    );
    const noSteer = await replay(
      input(messages),
      dropping("drop-steer", (m) => JSON.stringify(m).includes("unknown keys")),
      replayOptions(input(messages)),
    );
    expect(kept.continuity.person).toMatchObject({ task: kept.continuity.person.calls, latest: kept.continuity.person.calls });
    expect(noTask.continuity.person.task).toBe(0);
    // Only the last call comes after the request; it lacks it.
    expect(noSteer.continuity.person.latest).toBe(noSteer.continuity.person.calls - 1);
  });
});

describe("real time in the cache model", () => {
  it("prices an expired cache at the 5-minute TTL and a kept one at 1 hour", async () => {
    const messages = session();
    const minute = 60_000;
    // The request of the last call comes 20 minutes after the one before.
    const times = messages.map((_, i) => i * 10_000 + (i >= 12 ? 20 * minute : 0));
    const timed = await replay(input(messages, times), raw, replayOptions(input(messages, times)));
    const untimed = await replay(input(messages), raw, replayOptions(input(messages)));
    expect(timed.costs.ttl5mUsd).toBeGreaterThan(timed.costs.warmUsd);
    expect(timed.costs.warmUsd).toBeCloseTo(untimed.costUsd, 12);
    expect(timed.costUsd).toBeCloseTo(timed.costs.ttl5mUsd, 12);
  });
});

describe("decisions", () => {
  const reference = {
    session: "s",
    decisions: [
      { id: "d1", decision: "use vitest", atMessage: 1, weight: 2, match: [["vitest"], ["jest", "mocha"]] },
      { id: "d2", decision: "strict config", atMessage: 3, weight: 1, match: [["strict"]] },
    ],
  };

  it("keeps a decision only when every term group is present", () => {
    expect(scoreDecisions(reference, "We use Vitest, not Jest.")).toMatchObject({ kept: 1, weightedKept: 2, missing: ["d2"] });
    expect(scoreDecisions(reference, "vitest strict").missing).toEqual(["d1"]);
  });

  it("calls narration, progress, questions and cut text noise, and a choice with its reason a decision", () => {
    expect(noiseKind("I'll create them in parallel.")).toBe("narration");
    expect(noiseKind("Step 347 / 5000 (7%)")).toBe("progress");
    expect(noiseKind("Should we split the module?")).toBe("question");
    expect(noiseKind("- Use the batched kernel (cuBLAS gemm for sizes above 512")).toBe("truncated");
    expect(noiseKind("You're right, I overcomplicated it")).toBe("filler");
    expect(noiseKind("Use vitest instead of jest because the repo is ESM-only")).toBeNull();
    expect(noiseKind("I'll keep the old API as a thin wrapper so callers do not break")).toBeNull();
    expect(scoreNoise(["I'll read the file.", "Use pnpm, not npm."])).toMatchObject({ lines: 2, noise: 1 });
  });
});

describe("--dump", () => {
  it("writes each request with unchanged messages as refs into the transcript", async () => {
    const messages = session();
    const dir = mkdtempSync(join(tmpdir(), "bench-dump-"));
    const strategy = dropping("drop-read", (_, i) => i === 2);
    await replay(input(messages), strategy, { ...replayOptions(input(messages)), dump: dumpSink(dir, "tiny", strategy.name) });
    const lines = readFileSync(join(dir, "tiny", "drop-read", "requests.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { call: number; at: number; messages: unknown[] });
    expect(lines).toHaveLength(7);
    expect(lines[0]).toEqual({ call: 0, at: 1, messages: [{ ref: 0 }] });
    expect(lines[1]!.messages).toEqual([{ ref: 0 }, { ref: 1 }]);
    expect(lines[6]!.messages).not.toContainEqual({ ref: 2 });
    expect(readFileSync(join(dir, "tiny", "drop-read", "packet.md"), "utf8")).toContain("strict");
    expect(JSON.parse(readFileSync(join(dir, "tiny", "drop-read", "stats.json"), "utf8"))).toMatchObject({ strategy: "drop-read" });
  });
});
