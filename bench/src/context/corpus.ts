import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../args.js";
import type { BenchInput, RecordedCompaction } from "./input.js";
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
  return list.map((s): BenchInput => {
    const { messages, times } = readTranscript(join(dir, ".data", `${s.id}.jsonl`));
    const compactions = recordedCompactions(join(dir, ".data", `${s.id}.compactions.json`));
    return { name: s.id, kind: "transcript", messages, facts: null, window, times, ...(compactions.length ? { compactions } : {}) };
  });
}

interface CompactionsFile {
  /** The summary is null where the agent stored it encrypted (Codex). */
  compactions: Array<{ agent: string; beforeMessage: number; keptFromMessage?: number; summary: string | null }>;
}

/** The agent's own summaries (fetch-corpus.mjs writes them beside the transcript). */
function recordedCompactions(file: string): RecordedCompaction[] {
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, "utf8")) as CompactionsFile).compactions.map((c) => ({
    agent: c.agent,
    beforeMessage: c.beforeMessage,
    keptFrom: c.keptFromMessage ?? c.beforeMessage,
    summary: c.summary ?? "",
  }));
}
