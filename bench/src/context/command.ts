import { basename } from "node:path";
import type { BenchArgs } from "../args.js";
import { groupResults } from "./aggregate.js";
import type { BenchInput } from "./input.js";
import { renderGroup } from "./report.js";
import type { InputResult } from "./result.js";
import { runContextBench } from "./run-context.js";
import { hatloopStrategy } from "./strategies/hatloop.js";
import { STRATEGIES, type Strategy } from "./strategies/index.js";
import { FULL_LENGTHS, QUICK_LENGTHS, SYNTHETIC_WINDOW, syntheticInputs } from "./suite.js";
import { readTranscript } from "./transcript.js";
import { corpusInputs } from "./corpus.js";

// `pnpm bench context`: the synthetic suite (four sessions per length, two of each scenario; two
// per length with --quick) plus any transcripts, every strategy on each; returns the JSON document
// and the Markdown report.

const SESSIONS_PER_LENGTH = { full: 4, quick: 2 } as const;

export interface ContextReport {
  json: unknown;
  markdown: string;
}

export function contextInputs(args: BenchArgs): BenchInput[] {
  const lengths = args.quick ? QUICK_LENGTHS : FULL_LENGTHS;
  const synthetic = syntheticInputs(args.seed, lengths, args.quick ? SESSIONS_PER_LENGTH.quick : SESSIONS_PER_LENGTH.full);
  const transcripts = args.transcripts.map((file): BenchInput => ({
    name: basename(file),
    kind: "transcript",
    messages: readTranscript(file),
    facts: null,
    window: args.window,
  }));
  return [...synthetic, ...(args.corpus ? corpusInputs(args.window) : []), ...transcripts];
}

export async function contextCommand(args: BenchArgs, inputs: readonly BenchInput[], log: (line: string) => void): Promise<ContextReport> {
  const started = Date.now();
  const strategies: Strategy[] = [...STRATEGIES, ...args.variants.map((v) => hatloopStrategy(v))];
  const results = await runContextBench(inputs, {
    pricing: { inputPricePerMTok: args.pricePerMTok },
    strategies,
    progress: (input, strategy) => log(`context: ${input} · ${strategy} (${((Date.now() - started) / 1000).toFixed(1)} s)`),
  });
  const groups = groupResults(results);
  const markdown = [
    "## Context bench",
    `Seed ${args.seed}${args.quick ? " (quick)" : ""}; input price $${args.pricePerMTok}/MTok, cache write 1.25x, read 0.1x; synthetic window ${SYNTHETIC_WINDOW / 1000}k tokens.`,
    ...groups.map(renderGroup),
  ].join("\n\n");
  const json = {
    bench: "context",
    version: 1,
    options: {
      seed: args.seed,
      quick: args.quick,
      variants: args.variants,
      pricePerMTok: args.pricePerMTok,
      syntheticWindow: SYNTHETIC_WINDOW,
      transcriptWindow: args.window,
    },
    strategies: strategies.map((s) => ({ name: s.name, summary: s.summary })),
    facts: inputs.filter((i) => i.facts).map((i) => ({ input: i.name, facts: i.facts })),
    groups,
    inputs: results satisfies InputResult[],
    run: { durationMs: Date.now() - started, node: process.version },
  };
  return { json, markdown };
}
