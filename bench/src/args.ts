import { contextConfigSchema, defaultConfig } from "@hatloop/core";

// Command-line arguments of `pnpm bench`. Pure: a bad argument throws UsageError, which main turns
// into a one-line message and exit code 2.

export class UsageError extends Error {}

export interface BenchArgs {
  commands: Array<"context" | "runtime" | "tui" | "redaction" | "fleet" | "startup" | "console" | "sandbox">;
  json: boolean;
  transcripts: string[];
  /** Replay the real-session corpus (bench/corpus/, fetched by fetch-corpus.mjs). */
  corpus: boolean;
  seed: number;
  quick: boolean;
  pg: string | null;
  window: number;
  pricePerMTok: number;
  outDir: string | null;
  /** Write to bench/results/, the tracked figures the docs quote, instead of bench/out/. */
  publish: boolean;
  /** Write what each strategy sent, per transcript (context bench). */
  dumpDir: string | null;
  /** Extra hatloop rows with some context settings changed (the default row always runs). */
  variants: Array<Record<string, number | boolean | string>>;
  help: boolean;
}

export const USAGE = `usage: pnpm bench [context|runtime|tui|redaction|fleet|startup|console|sandbox] [options]

  context               replay sessions through every context strategy
  runtime               loop overhead, checkpoint/resume latency, watcher latency, memory
  tui                   the terminal UI under load: cost per event, render time, memory; then the same
                        scripted run with the TUI and with --plain in tmux (CPU, peak RSS); needs pnpm
                        build, tmux and GNU time (Postgres pair too with --pg)
  redaction             secret redaction on 100 KB and 10 MB single lines
  fleet                 the fleet (submit, workers on Postgres): throughput and takeover after SIGKILL
                        for 1, 2 and 4 workers; needs --pg (or $HATLOOP_TEST_DATABASE_URL) and pnpm build
  startup               whole hatloop processes: --help, ls/show/logs/handoff, demo, event to watch; wall
                        time, CPU, peak RSS next to node -e 0; needs pnpm build (Postgres row with --pg)
  console               the web console (hatloop serve) in Chromium: event to an open page, the sessions
                        page over 1,000 sessions with 20 pages open, what each page downloads; needs
                        pnpm build and Chromium (CHROMIUM_PATH, default /usr/bin/chromium); Postgres with --pg
  sandbox               one command's start-up as a plain child, in today's PID namespace (isolate) and in the
                        sandbox (tools.sandbox), alternated; needs bubblewrap, socat and ripgrep
  (none)                context, runtime, tui and redaction

  --transcript FILE     also replay this transcript (JSONL, one message per line); repeatable
  --corpus              also replay the real sessions of bench/corpus (run its fetch-corpus.mjs first)
  --seed N              seed of the synthetic sessions (default 1)
  --quick               a fast smoke run (shorter sessions, fewer repetitions)
  --json                print the JSON results instead of the Markdown tables
  --window N            working window for transcripts, in tokens (default 200000)
  --price USD           input price per million tokens for the cost model (default 3)
  --pg URL              Postgres server for the runtime, tui, fleet, startup and console benches (default $HATLOOP_TEST_DATABASE_URL)
  --out DIR             where to write results (default bench/out/, which git ignores)
  --publish             write them to bench/results/ instead: the tracked figures the docs quote
  --dump DIR            context: write what each strategy sent (requests.jsonl, packet.md, handoff.md,
                        stats.json per input and strategy; docs/benchmarks.md says how)
  --hatloop-variant K=V[,K=V]
                        also run hatloop with these context settings (e.g. targetPct=50); repeatable`;

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchArgs {
  const args: BenchArgs = {
    commands: [],
    json: false,
    transcripts: [],
    corpus: false,
    seed: 1,
    quick: false,
    pg: env["HATLOOP_TEST_DATABASE_URL"] || null,
    window: 200_000,
    pricePerMTok: 3,
    outDir: null,
    publish: false,
    dumpDir: null,
    variants: [],
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case "context":
      case "runtime":
      case "tui":
      case "redaction":
      case "fleet":
      case "startup":
      case "console":
      case "sandbox":
        if (args.commands.includes(arg)) throw new UsageError(`${arg} given twice`);
        args.commands.push(arg);
        break;
      case "--json":
        args.json = true;
        break;
      case "--quick":
        args.quick = true;
        break;
      case "--help":
      case "-h":
        args.help = true;
        break;
      case "--transcript":
        args.transcripts.push(value());
        break;
      case "--corpus":
        args.corpus = true;
        break;
      case "--seed":
        args.seed = integer(arg, value(), 0);
        break;
      case "--window":
        args.window = integer(arg, value(), 1_000);
        break;
      case "--price": {
        const v = value();
        const n = Number(v);
        if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--price must be a positive number, got "${v}"`);
        args.pricePerMTok = n;
        break;
      }
      case "--pg": {
        const v = value();
        if (!/^postgres(ql)?:\/\//.test(v)) throw new UsageError(`--pg must be a postgres:// URL, got "${v}"`);
        args.pg = v;
        break;
      }
      case "--out":
        args.outDir = value();
        break;
      case "--publish":
        args.publish = true;
        break;
      case "--dump":
        args.dumpDir = value();
        break;
      case "--hatloop-variant":
        args.variants.push(variant(value()));
        break;
      default:
        throw new UsageError(
          arg.startsWith("-")
            ? `unknown option ${arg}`
            : `unknown command "${arg}" (expected context, runtime, tui, redaction, fleet, startup or console)`,
        );
    }
  }
  if (args.commands.length === 0) args.commands = ["context", "runtime", "tui", "redaction"];
  if ((args.transcripts.length > 0 || args.corpus) && !args.commands.includes("context"))
    throw new UsageError("--transcript and --corpus only apply to the context bench");
  if (args.publish && args.outDir !== null) throw new UsageError("--publish writes to bench/results/: give it or --out DIR, not both");
  if (args.commands.includes("fleet") && !args.pg)
    throw new UsageError("fleet needs a Postgres server: pass --pg postgres://... or set HATLOOP_TEST_DATABASE_URL");
  return args;
}

/** "targetPct=50,keepTurns=6" → { targetPct: 50, keepTurns: 6 }, checked against the config schema. */
function variant(text: string): Record<string, number | boolean | string> {
  const overrides: Record<string, number | boolean | string> = {};
  for (const pair of text.split(",")) {
    const [key, raw] = pair.split("=");
    if (!key || raw === undefined) throw new UsageError(`--hatloop-variant expects KEY=VALUE pairs, got "${text}"`);
    // Numbers and booleans as such; anything else is a name (context.policy=economy).
    overrides[key.trim()] =
      raw === "true" ? true : raw === "false" ? false : raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw.trim();
  }
  const parsed = contextConfigSchema.safeParse({ ...defaultConfig().context, ...overrides });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--hatloop-variant ${text}: ${issue ? `${issue.path.join(".") || "context"}: ${issue.message}` : "invalid"}`);
  }
  return overrides;
}

function integer(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} must be an integer >= ${min}, got "${text}"`);
  return n;
}
