import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { toolResultText, toolResults, type Message } from "../messages.js";
import { messagesOf } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { pruneTurns, zonePrunePolicy, type PruneTurnsOptions } from "./prune-turns.js";
import { ARTIFACT_PLACEHOLDER } from "./strip-artifacts.js";
import { idsOf, keyed } from "./test-support/keyed.js";
import { mixedTranscript } from "./test-support/mixed-transcript.js";
import { assistant, result, syntheticTranscript, use, user } from "./test-support/transcripts.js";
import { splitTurns } from "./turns.js";
import { validatePairing } from "./validate-pairing.js";

const history = syntheticTranscript({ seed: 21, turns: 8, resultChars: 2_500 });
const turns = splitTurns(history);
const indices = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, k) => from + k);
const isStub = (text: string): boolean => text.startsWith(MARKERS.removedResult);
/** Prunes the messages as keyed entries; `messages` is what the pruned history sends. */
const prune = (messages: readonly Message[], options?: PruneTurnsOptions) => {
  const out = pruneTurns(keyed(messages), options);
  return { ...out, messages: messagesOf(out.kept) };
};

describe("splitTurns", () => {
  it("starts a turn at each real user message, never at a tool_result message", () => {
    expect(turns).toHaveLength(8);
    for (const t of turns) expect(typeof history[t.start]!.content).toBe("string");
    expect(splitTurns(mixedTranscript())).toEqual([
      { start: 0, end: 6 },
      { start: 6, end: 12 },
    ]);
  });
});

describe("pruneTurns", () => {
  it("keeps the newest N whole turns and drops older turns whole", () => {
    const out = prune(history, { keepTurns: 3 });
    const firstKept = turns[5]!.start;
    expect(out.keptTurns).toBe(3);
    expect(idsOf(out.dropped)).toEqual(indices(0, firstKept));
    expect(out.messages).toHaveLength(history.length - firstKept);
    expect(out.messages.map((m) => m.role)).toEqual(history.slice(firstKept).map((m) => m.role));
    expect(out.messages[0]).toEqual(history[firstKept]);
    expect(validatePairing(out.messages)).toEqual([]);
  });

  it("keeps the newest turn lossless and distils only bulky results of older kept turns", () => {
    const out = prune(history, { keepTurns: 3 });
    const newest = turns[7]!;
    expect(out.messages.slice(-(newest.end - newest.start))).toEqual(history.slice(newest.start));
    const olderKept = history.slice(turns[5]!.start, newest.start);
    const olderOut = out.messages.slice(0, newest.start - turns[5]!.start);
    const before = olderKept.flatMap(toolResults);
    const after = olderOut.flatMap(toolResults);
    expect(after.map((r) => r.tool_use_id)).toEqual(before.map((r) => r.tool_use_id));
    before.forEach((r, k) => {
      const bulky = toolResultText(r).length > 2_000;
      expect(isStub(toolResultText(after[k]!)), r.tool_use_id).toBe(bulky);
      if (!bulky) expect(after[k]).toEqual(r);
    });
    expect(out.distilled).toEqual(before.filter((r) => toolResultText(r).length > 2_000).map((r) => r.tool_use_id));
    expect(out.distilled.length).toBeGreaterThan(0);
  });

  it("tightens the kept suffix and the distil threshold as the zone worsens", () => {
    const kept = (zone: "green" | "gauge" | "warn" | "compact") => prune(history, { keepTurns: 4, zone }).keptTurns;
    expect([kept("green"), kept("gauge"), kept("warn"), kept("compact")]).toEqual([4, 3, 2, 1]);
    expect(zonePrunePolicy("warn", 4).distillOverChars).toBeLessThan(zonePrunePolicy("green", 4).distillOverChars);
    const compact = prune(history, { keepTurns: 4, zone: "compact" });
    expect(compact.messages).toEqual(history.slice(turns[7]!.start)); // newest only, lossless
    expect(prune(history, { zone: "warn", zonePolicy: { warn: { maxTurns: 5 } } }).keptTurns).toBe(5);
  });

  it("drops raw summary and resume artifacts from live context and reports them apart", () => {
    const summary = user(`${MARKERS.summary} (iterations 1–3, 40 messages)\n\n- did things`);
    const withArtifacts: Message[] = [
      summary,
      ...history.slice(0, turns[1]!.start),
      user({ type: "text", text: `${MARKERS.resume}\n**Task**: fix it` }, { type: "text", text: "Also: keep the API stable." }),
      ...history.slice(turns[1]!.start + 1),
    ];
    const out = prune(withArtifacts, { keepTurns: 20 });
    expect(idsOf(out.artifacts)).toEqual([0, turns[1]!.start + 1]);
    expect(idsOf(out.dropped)).not.toContain(0);
    const text = JSON.stringify(out.messages);
    expect(text).not.toContain(MARKERS.summary);
    expect(text).not.toContain(MARKERS.resume);
    expect(text).toContain("Also: keep the API stable.");
    expect(out.messages[0]).toEqual(history[0]);
    expect(validatePairing(out.messages)).toEqual([]);
  });

  it("keeps a placeholder when an artifact-only message opens a turn that goes on", () => {
    const resumed: Message[] = [
      user(`${MARKERS.resume}\n**Task**: fix it`),
      assistant("Resuming.", use("r1", "git_status")),
      user(result("r1", "clean")),
      assistant("ok"),
    ];
    const out = prune(resumed);
    expect(out.messages[0]).toEqual(user(ARTIFACT_PLACEHOLDER));
    expect(out.messages.slice(1)).toEqual(resumed.slice(1));
    expect(idsOf(out.artifacts)).toEqual([0]);
    expect(validatePairing(out.messages)).toEqual([]);
  });

  it("always starts with a real user message, even when the history does not", () => {
    const headless: Message[] = [
      assistant("stray", use("p1", "read_file", { path: "a" })),
      user(result("p1", "r")),
      assistant("x"),
      ...history.slice(0, turns[2]!.start),
    ];
    const out = prune(headless, { keepTurns: 10 });
    expect(out.messages[0]!.role).toBe("user");
    expect(idsOf(out.dropped)).toEqual([0, 1, 2]);
    expect(validatePairing(out.messages)).toEqual([]);
    const onlyPreamble = prune([assistant("stray")]);
    expect(onlyPreamble.messages[0]!.role).toBe("user");
  });

  it("keeps pairing valid at every turn count and zone, and never mutates its input", () => {
    const copy = structuredClone(history);
    for (let keep = 1; keep <= 9; keep++) {
      for (const zone of ["green", "gauge", "warn", "compact"] as const) {
        const out = pruneTurns(
          history.map((message, seq) => ({ message, seq })),
          { keepTurns: keep, zone },
        );
        const messages = messagesOf(out.kept);
        expect(validatePairing(messages), `${keep} ${zone}`).toEqual([]);
        expect(messages[0]!.role).toBe("user");
        expect(out.dropped.length + messages.length).toBe(history.length);
      }
    }
    expect(history).toEqual(copy);
    expect(JSON.stringify(prune(history))).toBe(JSON.stringify(prune(structuredClone(history))));
  });
});

describe("pruneTurns on the loop's message shapes", () => {
  // hatloop's loop closes an iteration with one user message: the results, then its notes (steer,
  // hat change, feedback) and maybe the gauge line.
  const loopHistory: Message[] = [
    user("Fix the login test."),
    assistant(use("a", "read_file", { path: "src/login.ts" })),
    user(result("a", "x".repeat(3_000)), { type: "text", text: "[Context: 71% | 142k/200k tokens]" }),
    assistant(use("b", "run_command", { command: "pnpm test" })),
    user(result("b", "exit code: 1"), { type: "text", text: `${MARKERS.steer} use the fake clock` }),
    assistant(use("c", "edit_file", { path: "src/login.ts", old_string: "a", new_string: "b" })),
    user(result("c", "ok"), { type: "text", text: "[hatloop] Signal EVENT:x is not published by this hat." }),
    assistant("Done."),
    user("[hatloop] Iteration 5. Continue as the creator."),
    assistant("All green."),
  ];

  it("starts turns at notes that follow results, not at results with only the gauge", () => {
    expect(splitTurns(loopHistory).map((t) => t.start)).toEqual([0, 4, 6, 8]);
  });

  it("cuts a kept opening message's results loose from its dropped turn", () => {
    const out = prune(loopHistory, { keepTurns: 3 });
    expect(idsOf(out.dropped)).toEqual([0, 1, 2, 3]);
    expect(out.kept.filter((k) => k.rewritten).map((k) => k.entry?.id)).toEqual([4]);
    expect(out.messages[0]).toEqual(user({ type: "text", text: `${MARKERS.steer} use the fake clock` }));
    expect(validatePairing(out.messages)).toEqual([]);
    expect(prune(loopHistory, { keepTurns: 4 }).kept.some((k) => k.rewritten)).toBe(false);
  });

  it("keeps the turn a results message belongs to when only artifact text made it a turn start", () => {
    const withSummary = loopHistory.map((m, i) =>
      i === 6 ? user(result("c", "ok"), { type: "text", text: `${MARKERS.summary} (2 messages)\n- x` }) : m,
    );
    const out = prune(withSummary, { keepTurns: 2 });
    expect(idsOf(out.artifacts)).toEqual([6]);
    expect(idsOf(out.dropped)).toEqual([0, 1, 2, 3]); // turns left: [0..3], [4..7], [8..9]
    expect(out.messages[2]).toEqual(user(result("c", "ok")));
    expect(validatePairing(out.messages)).toEqual([]);
  });

  it("trims the oldest steps of one enormous turn to fit maxTokens, keeping its opening and last step", () => {
    const steps = Array.from({ length: 30 }, (_, k) => [
      assistant(`step ${k}`, use(`s${k}`, "read_file", { path: `f${k}.ts` })),
      user(result(`s${k}`, "r".repeat(4_000))),
    ]).flat();
    const huge: Message[] = [user("One long iteration."), ...steps, assistant("finished")];
    const unbounded = prune(huge);
    expect(unbounded.messages).toEqual(huge); // one turn: lossless
    const out = prune(huge, { maxTokens: 10_000 });
    expect(out.messages[0]).toEqual(huge[0]);
    expect(out.messages.at(-1)).toEqual(huge.at(-1));
    expect(estimateTokens(out.messages)).toBeLessThanOrEqual(10_000);
    expect(estimateTokens(out.messages)).toBeGreaterThan(8_000); // only as much as needed
    expect(out.dropped[0]?.id).toBe(1);
    expect(out.dropped.length + out.messages.length).toBe(huge.length);
    expect(validatePairing(out.messages)).toEqual([]);
  });

  it("drops older kept turns before touching the newest under maxTokens", () => {
    const out = prune(history, { keepTurns: 4, maxTokens: estimateTokens(history.slice(turns[7]!.start)) + 10 });
    expect(out.keptTurns).toBe(1);
    expect(out.messages).toEqual(history.slice(turns[7]!.start));
  });

  it("hands back each kept message's entry, and a history with no real user message starts with a continuation it wrote", () => {
    const out = prune(history, { keepTurns: 3 });
    expect(out.kept.map((k) => k.entry?.id)).toEqual(indices(turns[5]!.start, history.length));
    const preamble: Message[] = [
      assistant("Reading.", use("t1", "read_file", { path: "a.ts" })),
      user(result("t1", "x".repeat(3_000))),
      assistant("done"),
    ];
    const headless = prune(preamble);
    expect(headless.kept).toEqual([
      { entry: null, message: { role: "user", content: `${MARKERS.continuation} Continue the task.` }, rewritten: true },
    ]);
    expect(idsOf(headless.dropped)).toEqual([0, 1, 2]);
  });
});
