import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { toolResultText, toolResults, type Message, type ToolResultBlock } from "../messages.js";
import { messagesOf } from "./entry.js";
import { filterToolResponses, middleOutOrder, removalCount, removeToolResponses } from "./filter-tool-responses.js";
import { keyed } from "./test-support/keyed.js";
import { mixedTranscript, MIXED_RESULT_IDS } from "./test-support/mixed-transcript.js";
import { syntheticTranscript } from "./test-support/transcripts.js";
import { validatePairing } from "./validate-pairing.js";

const results = (messages: readonly Message[]): ToolResultBlock[] => messages.flatMap(toolResults);
const stubbedIds = (messages: readonly Message[]): string[] =>
  results(messages)
    .filter((r) => toolResultText(r).startsWith(MARKERS.removedResult))
    .map((r) => r.tool_use_id);
const shape = (messages: readonly Message[]) =>
  messages.map((m) => ({
    role: m.role,
    blocks:
      typeof m.content === "string"
        ? ["string"]
        : m.content.map((b) =>
            b.type === "tool_result"
              ? `${b.type}:${b.tool_use_id}:${b.is_error ?? false}`
              : b.type === "tool_use"
                ? `tool_use:${b.id}`
                : b.type,
          ),
  }));

describe("filterToolResponses: pairing stays valid", () => {
  const transcripts = { mixed: mixedTranscript(), synthetic: syntheticTranscript({ seed: 11, turns: 15 }) };
  for (const [name, history] of Object.entries(transcripts)) {
    it(`keeps every level 0..100 valid, same shape, same order (${name})`, () => {
      for (let pct = 0; pct <= 100; pct++) {
        const out = filterToolResponses(history, pct);
        expect(validatePairing(out), `level ${pct}`).toEqual([]);
        expect(shape(out)).toEqual(shape(history)); // no message removed, ids, order and is_error unchanged
      }
    });
  }

  it("never mutates its input and is deterministic", () => {
    const history = mixedTranscript();
    const copy = structuredClone(history);
    const stored = (messages: readonly Message[]) => messages.map((message, i) => ({ message, seq: 100 + i }));
    const a = JSON.stringify(removeToolResponses(stored(history), 50));
    const b = JSON.stringify(removeToolResponses(stored(structuredClone(history)), 50));
    expect(history).toEqual(copy);
    expect(a).toBe(b);
  });
});

describe("filterToolResponses: middle-out", () => {
  it("counts parallel results one by one and removes max(1, n·p/100), none at 0%", () => {
    const history = mixedTranscript(); // 7 results
    expect(stubbedIds(filterToolResponses(history, 0))).toEqual([]);
    expect(stubbedIds(filterToolResponses(history, 1))).toHaveLength(1);
    expect(stubbedIds(filterToolResponses(history, 10))).toHaveLength(1);
    expect(stubbedIds(filterToolResponses(history, 50))).toHaveLength(3);
    expect(stubbedIds(filterToolResponses(history, 100))).toEqual([...MIXED_RESULT_IDS]);
    expect(removalCount(7, 20)).toBe(1);
    expect(removalCount(0, 50)).toBe(0);
  });

  it("removes from the middle outward, so the first and the newest results go last", () => {
    expect(middleOutOrder(7)).toEqual([3, 2, 4, 1, 5, 0, 6]);
    expect(middleOutOrder(4)).toEqual([1, 2, 0, 3]);
    expect(middleOutOrder(1)).toEqual([0]);
    const { removed } = removeToolResponses(keyed(mixedTranscript()), 100);
    expect(removed).toEqual(["t4", "t3", "t5", "t2", "t6", "t1", "t7"]);
    for (let pct = 1; pct < 100; pct++) {
      const ids = stubbedIds(filterToolResponses(mixedTranscript(), pct));
      if (ids.length < 6) expect(ids).not.toContain("t1");
      if (ids.length < 7) expect(ids).not.toContain("t7");
    }
  });

  it("does not count already stubbed results again", () => {
    const once = filterToolResponses(mixedTranscript(), 50); // t4, t3, t5
    const twice = removeToolResponses(keyed(once), 50); // 4 live left → 2 more: positions 1, 2 of [t1, t2, t6, t7]
    expect(twice.removed).toEqual(["t2", "t6"]);
    expect(twice.stubbed.sort()).toEqual(["t2", "t3", "t4", "t5", "t6"]);
    expect(JSON.stringify(filterToolResponses(filterToolResponses(mixedTranscript(), 100), 100))).toBe(
      JSON.stringify(filterToolResponses(mixedTranscript(), 100)),
    );
  });
});

describe("removeToolResponses: stubs", () => {
  const history = mixedTranscript();
  const stored = history.map((message, i) => ({ message, seq: 500 + i }));
  const { kept } = removeToolResponses(stored, 100);
  const out = messagesOf(kept);
  const stub = (id: string): ToolResultBlock => results(out).find((r) => r.tool_use_id === id)!;

  it("hands back every entry, in order, with its message stubbed", () => {
    expect(kept.map((k) => k.entry)).toEqual(stored);
    expect(kept.every((k) => !k.rewritten)).toBe(true);
    expect(shape(out)).toEqual(shape(history));
  });

  it("names the archived result, its entry's seq and a one-line gist, and points to recall", () => {
    const t3 = toolResultText(stub("t3"));
    expect(t3.startsWith(MARKERS.removedResult)).toBe(true);
    expect(t3).toContain("id t3, seq 504");
    expect(t3).toContain("read_file path=src/login.ts");
    expect(t3).toContain('"export async function login() {"');
    expect(t3).toMatch(/\d+ chars, 2 lines/);
    expect(t3).toContain("recall");
    expect(t3.length).toBeLessThan(400);
    expect(t3).not.toContain("\n");
  });

  it("skips blank lines for the gist, keeps is_error, replaces images, and omits seq when unknown", () => {
    expect(toolResultText(stub("t1"))).toContain(`"import { login } from '../src/login';"`);
    expect(stub("t4").is_error).toBe(true);
    expect(toolResultText(stub("t4"))).toContain("run_command command=pnpm test");
    expect(toolResultText(stub("t4"))).toContain("error");
    expect(stub("t6").content).toEqual(expect.stringContaining("1 image"));
    const noSeq = toolResultText(results(filterToolResponses(history, 100)).find((r) => r.tool_use_id === "t3")!);
    expect(noSeq).toContain("id t3]");
    expect(noSeq).not.toContain("seq");
  });
});

describe("filterToolResponses: frozen removals are monotone", () => {
  it("re-applies frozen stubs at every level, including 0%", () => {
    const history = mixedTranscript();
    expect(stubbedIds(filterToolResponses(history, 0, { frozen: ["t1", "t7"] }))).toEqual(["t1", "t7"]);
    for (const pct of [10, 20, 50, 100]) {
      const ids = stubbedIds(filterToolResponses(history, pct, { frozen: new Set(["t1", "t7"]) }));
      expect(ids).toEqual(expect.arrayContaining(["t1", "t7"]));
    }
    // frozen ones are not counted: 5 live, 40% → 2 more from the middle of [t2..t6]
    expect(removeToolResponses(keyed(history), 40, { frozen: ["t1", "t7"] }).removed).toEqual(["t4", "t3"]);
  });

  it("keeps earlier stubs byte-identical when the grown history is compacted again", () => {
    const history = syntheticTranscript({ seed: 2, turns: 10 });
    const stored = (messages: readonly Message[]) => messages.map((message, i) => ({ message, seq: i + 1 }));
    const first = removeToolResponses(stored(history), 20);
    const grown = [...history, ...syntheticTranscript({ seed: 3, turns: 2 }).slice(1).map(renumber)];
    const second = removeToolResponses(stored(grown), 20, { frozen: first.stubbed });
    expect(first.stubbed.length).toBeGreaterThan(0);
    const blockOf = (messages: readonly Message[], id: string) => JSON.stringify(results(messages).find((r) => r.tool_use_id === id));
    for (const id of first.stubbed) expect(blockOf(messagesOf(second.kept), id)).toBe(blockOf(messagesOf(first.kept), id));
    expect(second.removed.some((id) => first.stubbed.includes(id))).toBe(false);
  });
});

/** Renames the tool ids of the appended part so they do not collide with the first part's. */
function renumber(message: Message): Message {
  return JSON.parse(JSON.stringify(message).replaceAll("toolu_", "toolu_b")) as Message;
}

describe("stubs of failing results", () => {
  it("quote the failure line, not only the runner's banner", async () => {
    const { stubText } = await import("./tool-result-stub.js");
    const output =
      "> app@1.0.0 test\n> node --test\n\n✖ refresh keeps the session\n  AssertionError: expected 200 to equal 401\n    at test.js:12";
    const stub = stubText({
      block: { type: "tool_result", tool_use_id: "t1", content: output, is_error: true },
      use: { type: "tool_use", id: "t1", name: "run_command", input: { command: "npm test" } },
      seq: 7,
    });
    expect(stub).toContain('"> app@1.0.0 test" … "✖ refresh keeps the session — AssertionError: expected 200 to equal 401"');
    expect(stub).toContain("error");
  });
});

describe("results the session has moved past go first", () => {
  const call = (id: string, name: string, input: Record<string, unknown>): Message[] => [
    { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: `output of ${id} ${"x".repeat(400)}` }] },
  ];
  const history: Message[] = [
    { role: "user", content: "Fix the parser." },
    ...call("t1", "read_file", { path: "a.ts" }),
    ...call("t2", "run_command", { command: "npm test" }),
    ...call("t3", "read_file", { path: "b.ts" }),
    ...call("t4", "read_file", { path: "c.ts" }),
    ...call("t5", "run_command", { command: "npm test" }),
    ...call("t6", "read_file", { path: "a.ts" }),
    ...call("t7", "read_file", { path: "a.ts", offset: 100 }),
  ];

  it("stubs a read made again later and a command run again later before anything else", () => {
    expect(removeToolResponses(keyed(history), 30).removed).toEqual(["t2", "t1"]);
    // Then the middle-out order of the rest; a read of another part of a file is not the same read.
    expect(removeToolResponses(keyed(history), 60).removed).toEqual(["t2", "t1", "t4", "t3"]);
  });
});
