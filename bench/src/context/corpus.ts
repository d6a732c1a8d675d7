import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../args.js";
import type { BenchInput } from "./input.js";
import { readTranscript } from "./transcript.js";

// The real-session corpus: sessions of public agents (bench/corpus/sources.json), converted to
// transcripts by bench/corpus/fetch-corpus.mjs into bench/corpus/.data/ (not committed: their
// licences do not all allow it). Each is replayed like a --transcript.

const corpusDir = fileURLToPath(new URL("../../corpus", import.meta.url));

interface CorpusSource {
  id: string;
  agent: string;
}

export function corpusInputs(window: number, dir = corpusDir): BenchInput[] {
  const list = (JSON.parse(readFileSync(join(dir, "sources.json"), "utf8")) as { sessions: CorpusSource[] }).sessions;
  const missing = list.filter((s) => !existsSync(join(dir, ".data", `${s.id}.jsonl`))).map((s) => s.id);
  if (missing.length)
    throw new UsageError(
      `the corpus is not fetched (${missing.length} of ${list.length} missing, e.g. ${missing[0]}): run node bench/corpus/fetch-corpus.mjs (see bench/corpus/README.md)`,
    );
  return list.map((s): BenchInput => ({
    name: s.id,
    kind: "transcript",
    messages: readTranscript(join(dir, ".data", `${s.id}.jsonl`)),
    facts: null,
    window,
  }));
}
