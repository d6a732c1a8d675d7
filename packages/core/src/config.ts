import { z } from "zod";

// The whole configuration, validated in one place. Layers (flags > HATLOOP_* env > repo
// .hatloop/config.json > user config > these defaults) are merged by the CLI before parsing.
// Unknown keys are errors, so a typo never silently does nothing.

const percent = z.number().min(1).max(100);
const positiveInt = z.number().int().positive();

/** "90s", "15m", "4h", "1d" or a number of milliseconds. */
export const duration = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d+(\.\d+)?\s*(ms|s|m|h|d)$/, "expected a duration such as 90s, 15m or 4h")
    .transform((s) => {
      const [, n, unit] = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(s)!;
      const factor = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as "ms" | "s" | "m" | "h" | "d"];
      return Math.round(Number(n) * factor);
    }),
]);

export const contextConfigSchema = z
  .object({
    /**
     * The working window the guard manages. Default: the model's window, capped at 200k tokens,
     * because every token sent is paid for on every call; raise it for the 1M-token models.
     */
    window: positiveInt.optional(),
    gaugePct: percent.default(70),
    warnPct: percent.default(80),
    compactPct: percent.default(90),
    /** Progressive removal aims under this share of the compaction threshold. */
    targetPct: percent.default(80),
    /** Upper bound of the automatic recalled-context block (also capped at 10% of the window). */
    recallCapTokens: positiveInt.default(4_000),
    /** Whole turns kept verbatim by turn-aware pruning. */
    keepTurns: positiveInt.default(4),
    /** Stubbed tool results the live context may carry; past this, compaction prunes old turns instead. */
    maxStubs: positiveInt.default(40),
    /** Use the model for structured summaries and fact extraction (falls back to rules on error). */
    llmSummary: z.boolean().default(true),
  })
  .strict()
  .refine((c) => c.gaugePct <= c.warnPct && c.warnPct <= c.compactPct, {
    message: "expected gaugePct <= warnPct <= compactPct",
    path: ["warnPct"],
  });

export const gatesConfigSchema = z
  .object({
    test: z.string().optional(),
    lint: z.string().optional(),
    build: z.string().optional(),
    timeout: duration.default(300_000),
    /** Detect commands from the project's files when none are configured. */
    detect: z.boolean().default(true),
  })
  .strict();

export const configSchema = z
  .object({
    model: z.string().min(1).default("claude-sonnet-5-5"),
    summaryModel: z.string().min(1).default("claude-haiku-4-5"),
    databaseUrl: z.string().min(1).optional(),
    hat: z.string().min(1).default("planner"),
    maxIterations: positiveInt.default(100),
    maxTokens: positiveInt.optional(),
    maxCostUsd: z.number().positive().optional(),
    maxRuntime: duration.default(4 * 3_600_000),
    maxOutputTokens: positiveInt.default(8_192),
    context: contextConfigSchema.default(contextConfigSchema.parse({})),
    checkpoint: z
      .object({ interval: positiveInt.default(5), retain: positiveInt.default(20) })
      .strict()
      .default({ interval: 5, retain: 20 }),
    gates: gatesConfigSchema.default(gatesConfigSchema.parse({})),
    tools: z
      .object({
        commandTimeout: duration.default(120_000),
        maxResultChars: positiveInt.default(30_000),
      })
      .strict()
      .default({ commandTimeout: 120_000, maxResultChars: 30_000 }),
    /** Where task worktrees go; default: a sibling directory of the repository. */
    worktreeDir: z.string().optional(),
  })
  .strict();

export type HatloopConfig = z.output<typeof configSchema>;
export type HatloopConfigInput = z.input<typeof configSchema>;

export function defaultConfig(): HatloopConfig {
  return configSchema.parse({});
}
