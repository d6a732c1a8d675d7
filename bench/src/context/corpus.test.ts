import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../args.js";
import { corpusInputs } from "./corpus.js";

// --corpus replays every session sources.json lists, from the transcripts fetch-corpus.mjs wrote;
// one missing is a usage error that says how to get them, not a shorter table.

function corpus(ids: string[], fetched: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-corpus-"));
  writeFileSync(join(dir, "sources.json"), JSON.stringify({ sessions: ids.map((id) => ({ id, agent: "test" })) }));
  mkdirSync(join(dir, ".data"));
  for (const id of fetched) {
    const lines = [
      { role: "user", content: [{ type: "text", text: `task ${id}` }] },
      { role: "assistant", content: [{ type: "text", text: "done" }], at: "2025-07-16T20:12:02.094Z" },
    ];
    writeFileSync(join(dir, ".data", `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n"));
  }
  return dir;
}

describe("the real corpus", () => {
  it("replays every listed session as a transcript", () => {
    const inputs = corpusInputs(100_000, corpus(["a", "b"], ["a", "b"]));
    expect(inputs.map((i) => [i.name, i.kind, i.window, i.messages.length])).toEqual([
      ["a", "transcript", 100_000, 2],
      ["b", "transcript", 100_000, 2],
    ]);
    // Each message's time comes along, for pricing prompt-cache expiry from the real gaps.
    expect(inputs[0]!.times).toEqual([null, Date.UTC(2025, 6, 16, 20, 12, 2, 94)]);
  });

  it("is a usage error, naming the fetch script, when a session is not fetched", () => {
    const dir = corpus(["a", "b"], ["a"]);
    expect(() => corpusInputs(100_000, dir)).toThrow(UsageError);
    expect(() => corpusInputs(100_000, dir)).toThrow(/1 of 2 missing, e\.g\. b\): run node bench\/corpus\/fetch-corpus\.mjs/);
  });
});
