import { basename } from "node:path";
import type { BenchArgs } from "../args.js";
import { groupResults } from "./aggregate.js";
import type { BenchInput } from "./input.js";
import { renderGroup } from "./report.js";
import type { InputResult } from "./result.js";
import { runContextBench } from "./run-context.js";
import { hatloopStrategy } from "./strategies/hatloop.js";
import { ALL_STRATEGIES, STRATEGIES, type Strategy } from "./strategies/index.js";
import { FULL_LENGTHS, QUICK_LENGTHS, SYNTHETIC_WINDOW, syntheticInputs } from "./suite.js";
import { readTranscript } from "./transcript.js";
import { corpusInputs } from "./corpus.js";
import { analyseInput } from "./continuity/analysis.js";
import { calibrateSummaries } from "./continuity/calibration.js";
import { sessionVerdict } from "./frontier/frontier.js";
import { frontierSvg } from "./frontier/frontier-plot.js";
import { renderVerdicts } from "./frontier/frontier-report.js";

// `pnpm bench context`: the synthetic suite (four sessions per length, two of each scenario; two
// per length with --quick) with every strategy at its default, plus any transcripts with the peers'
// settings swept as well (--quick: defaults only); returns the JSON document and the Markdown report.

const SESSIONS_PER_LENGTH = { full: 4, quick: 2 } as const;

export interface ContextReport {
  json: unknown;
  markdown: string;
  /** The frontier plot (context-frontier.svg), when real sessions ran with their peers. */
  files?: Record<string, string>;
}

export function contextInputs(args: BenchArgs): BenchInput[] {
  const lengths = args.quick ? QUICK_LENGTHS : FULL_LENGTHS;
  const synthetic = syntheticInputs(args.seed, lengths, args.quick ? SESSIONS_PER_LENGTH.quick : SESSIONS_PER_LENGTH.full);
  const transcripts = args.transcripts.map((file): BenchInput => {
    const { messages, times } = readTranscript(file);
    return { name: basename(file), kind: "transcript", messages, facts: null, window: args.window, times };
  });
  return [...synthetic, ...(args.corpus ? corpusInputs(args.window) : []), ...transcripts];
}

export async function contextCommand(args: BenchArgs, inputs: readonly BenchInput[], log: (line: string) => void): Promise<ContextReport> {
  const started = Date.now();
  const variants = args.variants.map((v) => hatloopStrategy(v));
  const defaults: Strategy[] = [...STRATEGIES, ...variants];
  const strategies: Strategy[] = args.quick ? defaults : [...ALL_STRATEGIES, ...variants];
  const results = await runContextBench(inputs, {
    pricing: { inputPricePerMTok: args.pricePerMTok },
    strategies: (input) => (input.kind === "synthetic" ? defaults : strategies),
    ...(args.dumpDir ? { dumpDir: args.dumpDir } : {}),
    progress: (input, strategy) => log(`context: ${input} · ${strategy} (${((Date.now() - started) / 1000).toFixed(1)} s)`),
  });
  const groups = groupResults(results);
  const verdicts = results.flatMap((r) => sessionVerdict(r) ?? []);
  const calibration = inputs.flatMap((input) => (input.compactions ? calibrateSummaries(input, analyseInput(input)) : []));
  const markdown = [
    "## Context bench",
    `Seed ${args.seed}${args.quick ? " (quick)" : ""}; input price $${args.pricePerMTok}/MTok, cache write 1.25x (5 minutes) or 2x (1 hour), read 0.1x, expiry from the transcripts' real gaps; synthetic window ${SYNTHETIC_WINDOW / 1000}k tokens; Node ${process.version}.`,
    renderVerdicts(verdicts, calibration),
    ...groups.map(renderGroup),
  ]
    .filter(Boolean)
    .join("\n\n");
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
    verdicts: verdicts.map(({ points, ...v }) => ({ ...v, points })),
    calibration,
    groups,
    inputs: results satisfies InputResult[],
    run: { durationMs: Date.now() - started, node: process.version },
  };
  return { json, markdown, ...(verdicts.length ? { files: { "context-frontier.svg": frontierSvg(verdicts) } } : {}) };
}
