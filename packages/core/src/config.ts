import { z } from "zod";
import { DURATION_PATTERN, parseDuration } from "./light.js";
import { sandboxConfigSchema } from "./sandbox-config.js";

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
    .regex(DURATION_PATTERN, "expected a duration such as 90s, 15m or 4h")
    .transform((s) => parseDuration(s)!),
]);

export const contextConfigSchema = z
  .object({
    /**
     * The working window the guard manages. Default: the model's window, capped at 200k tokens,
     * because every token sent is paid for on every call; raise it for the 1M-token models.
     */
    window: positiveInt
      .optional()
      .describe("The window the guard manages (raise it to use a 1M-token window). Unset: the model's window, at most 200k."),
    /**
     * When to compact and how much to keep, from what the context costs (see context/policy.ts):
     * economy keeps least and compacts often (cheapest, more recall), roomy keeps most, zones only
     * compacts at compactPct (no cost policy). The zones below stay the upper bounds of every policy.
     */
    policy: z
      .enum(["economy", "balanced", "roomy", "zones"])
      .default("balanced")
      .describe(
        "When and to what size to compact: `economy` / `balanced` / `roomy` (cost model, keeping 12 / 25 / 35% of the window) or `zones` (fixed zones only); see [context.md](context.md).",
      ),
    gaugePct: percent.default(70).describe("Guard zone, % of the window: from here the model sees a one-line context gauge."),
    warnPct: percent.default(80).describe("Guard zone: from here a warn checkpoint is written."),
    compactPct: percent.default(90).describe("Guard zone: from here the next model call is preceded by a compaction."),
    /** Progressive removal aims under this share of the compaction threshold. */
    targetPct: percent
      .default(80)
      .describe("Removal target, % of the compaction threshold (the upper bound; the policy's residual is usually lower)."),
    /** Upper bound of the automatic recalled-context block (also capped at 10% of the window). */
    recallCapTokens: positiveInt.default(4_000).describe("Cap of the recalled-context block (also at most 10% of the window)."),
    /** Whole turns kept verbatim by turn-aware pruning. */
    keepTurns: positiveInt.default(4).describe("Whole recent turns kept by turn-aware pruning."),
    /** Stubbed tool results the live context may carry; past this, compaction prunes old turns instead. */
    maxStubs: positiveInt
      .default(40)
      .describe("Stubbed results the live context may carry; past this, compaction prunes old turns (summarised) instead."),
    /**
     * The prompt cache's lifetime: auto picks 5 minutes or an hour from the gaps between calls seen
     * so far (context/cache-ttl.ts); fixed, for a user who knows how the sessions go (steps away
     * often: 1h).
     */
    cacheTtl: z
      .enum(["auto", "5m", "1h"])
      .default("auto")
      .describe(
        "Prompt-cache lifetime: `auto` (5 minutes, an hour once enough of the gaps between calls outlive 5 minutes), `5m` or `1h` (writes cost 2x, survives an hour away); see [context.md](context.md).",
      ),
    /** Use the model for structured summaries and fact extraction (falls back to rules on error). */
    llmSummary: z.boolean().default(true).describe("Structured LLM summaries and fact extraction (mechanical fallback on any error)."),
  })
  .strict()
  .refine((c) => c.gaugePct <= c.warnPct && c.warnPct <= c.compactPct, {
    message: "expected gaugePct <= warnPct <= compactPct",
    path: ["warnPct"],
  });

export const gatesConfigSchema = z
  .object({
    test: z.string().optional().describe("Quality-gate command for the tests. Unset: detected from the project's files (`gates.detect`)."),
    lint: z.string().optional().describe("Quality-gate command for the linter. Unset: detected."),
    build: z.string().optional().describe("Quality-gate command for the build. Unset: detected."),
    timeout: duration.default(300_000).describe("Per gate command."),
    /** Detect commands from the project's files when none are configured. */
    detect: z.boolean().default(true).describe("Detect gate commands from the project's files when none are configured."),
  })
  .strict();

/** A hook: a shell command (the event as JSON on stdin) or an http(s) URL (the event POSTed as JSON); a list runs each. */
const hookTargets = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .transform((v) => (typeof v === "string" ? [v] : v))
  .refine((targets) => targets.every((t) => !/^https?:/i.test(t) || URL.canParse(t)), "expected a shell command or a valid http(s) URL");

/** Lifecycle hooks: run beside the loop, never blocking it; a failing one is reported, never fatal (see docs/hooks.md). */
const hooksConfigSchema = z
  .object({
    onComplete: hookTargets
      .optional()
      .describe("A shell command or http(s) URL (or a list of them) run when a session completes; see [hooks.md](hooks.md)."),
    onFail: hookTargets
      .optional()
      .describe("Command or URL (or a list) run when a session fails or a stop ends it (loop health, the grader's revisions used up)."),
    onPause: hookTargets
      .optional()
      .describe("Command or URL (or a list) run when a session pauses (budget, Ctrl-C, `hatloop stop`, the TUI's pause)."),
    onWaiting: hookTargets
      .optional()
      .describe("Command or URL (or a list) run when the agent asks a question and the session waits for an answer."),
    onIteration: hookTargets.optional().describe("Command or URL (or a list) run after every iteration."),
    timeout: duration.default(10_000).describe("Per attempt of a hook: a command is killed, a request aborted, after this long."),
    retries: z.number().int().min(0).max(10).default(2).describe("Further attempts after a hook fails (backoff 1 s, 2 s, 4 s ...)."),
  })
  .strict();

/** Pull requests on completion (`--pr`, `--draft`; see docs/pull-requests.md). */
export const prConfigSchema = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        "Push the task branch and open a pull request when a session completes (`--pr`); see [pull-requests.md](pull-requests.md).",
      ),
    draft: z.boolean().default(false).describe("Open it as a draft (`--draft`)."),
    remote: z.string().min(1).default("origin").describe("The git remote the task branch is pushed to."),
    base: z.string().min(1).optional().describe("The branch the pull request targets. Unset: the remote's default branch."),
  })
  .strict();

/**
 * One MCP server, in the shape of Claude Code's `.mcp.json`: a command started over stdio, or a
 * streamable-HTTP endpoint. Its tools reach the hats that allow them as `mcp__<server>__<tool>`.
 */
export const mcpServerSchema = z.union([
  z
    .object({
      type: z.literal("stdio").optional(),
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
      cwd: z.string().optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal("http"),
      url: z.url(),
      headers: z.record(z.string(), z.string()).default({}),
    })
    .strict(),
]);

export type McpServerConfig = z.output<typeof mcpServerSchema>;

/** A server's name becomes part of its tools' names, which the API allows only these characters in. */
export const mcpServerNameSchema = z.string().regex(/^[A-Za-z0-9_-]+$/, "expected letters, digits, _ or -");

const mcpConfigSchema = z
  .object({
    servers: z
      .record(mcpServerNameSchema, mcpServerSchema)
      .default({})
      .describe(
        'MCP servers whose tools the hats may use, as in `.mcp.json`: `{"name": {"command", "args", "env"}}` or `{"name": {"type": "http", "url", "headers"}}`; see [mcp.md](mcp.md).',
      ),
    projectFile: z
      .boolean()
      .default(true)
      .describe("Also start the servers of the repository's `.mcp.json` (same names: the config wins)."),
    timeout: duration.default(60_000).describe("Connecting to an MCP server, and each MCP tool call."),
  })
  .strict();

export const configSchema = z
  .object({
    model: z.string().min(1).default("claude-sonnet-5-5").describe("Model for the loop (`scripted:FILE` replays a scenario offline)."),
    summaryModel: z.string().min(1).default("claude-haiku-4-5").describe("Cheaper model for structured summaries."),
    /** Where Claude is called; the clouds take credentials from their usual environment (docs/providers.md). */
    provider: z
      .enum(["anthropic", "bedrock", "vertex"])
      .default("anthropic")
      .describe(
        "Where the model runs: `anthropic` (the Anthropic API), `bedrock` (Amazon Bedrock) or `vertex` (Google Vertex AI); see [providers.md](providers.md).",
      ),
    databaseUrl: z
      .string()
      .min(1)
      .optional()
      .describe("`postgres://...`, a PGlite directory, or `memory://`. Unset: the embedded database ([data.md](data.md))."),
    hat: z.string().min(1).default("planner").describe("Starting hat."),
    maxIterations: positiveInt.default(100).describe("Budget: iterations."),
    maxTokens: positiveInt.optional().describe("Budget: input + output tokens. Unset: no limit."),
    maxCostUsd: z.number().positive().optional().describe("Budget: dollars. Unset: no limit."),
    maxRuntime: duration.default(4 * 3_600_000).describe("Budget: wall time (`90s`, `15m`, `4h`, `1d` or milliseconds)."),
    maxWait: duration
      .optional()
      .describe(
        "Budget: how long an agent's question (ask_user) waits for an answer before the run pauses, resumably. Unset: a run in the terminal UI waits as long as it takes; a headless run (`--plain`, `--json`, fleet) ends at once with status `waiting` (exit 4).",
      ),
    maxOutputTokens: positiveInt
      .default(8_192)
      .describe("Output tokens per model call (raised once to the model's maximum when a tool call is cut)."),
    /**
     * Patience with a failing API (429, 5xx, 529, dropped connections): attempts per model call, and
     * the longest backoff between two. The defaults ride out an outage of about ten minutes.
     */
    retry: z
      .object({
        maxAttempts: positiveInt
          .default(10)
          .describe("Attempts per model call on 429/5xx/529/dropped connections (about ten minutes of outage in all)."),
        maxDelay: duration.default(120_000).describe("The longest backoff between two attempts."),
        /**
         * A usage limit (a subscription's allowance, an organisation's spend limit) resets in hours,
         * not minutes: wait for the reset the API gives and go on, or stop the run (resumable).
         */
        usageLimit: z
          .enum(["wait", "stop"])
          .default("wait")
          .describe(
            "At a usage limit (a subscription's or organisation's, resetting in hours): `wait` for the reset the API gives, then go on (never past `maxRuntime`), or `stop` the run, resumable (`--usage-limit`); see [running.md](running.md#usage-limits).",
          ),
      })
      .strict()
      .default({ maxAttempts: 10, maxDelay: 120_000, usageLimit: "wait" }),
    context: contextConfigSchema.default(contextConfigSchema.parse({})),
    checkpoint: z
      .object({
        interval: positiveInt.default(5).describe("Checkpoint every N iterations."),
        retain: positiveInt.default(20).describe("Keep the last K checkpoints (and the first, every completion and every failure)."),
      })
      .strict()
      .default({ interval: 5, retain: 20 }),
    gates: gatesConfigSchema.default(gatesConfigSchema.parse({})),
    /**
     * The grader of a task's acceptance criteria (loop/grading.ts): a fresh context that did not do
     * the work judges each criterion after the gates pass; unmet ones go back to the loop as a revision.
     */
    grader: z
      .object({
        model: z
          .string()
          .min(1)
          .optional()
          .describe("Model of the grader of acceptance criteria. Unset: the session's model (on a cloud, in the cloud's form)."),
        maxRevisions: z
          .number()
          .int()
          .min(0)
          .default(3)
          .describe(
            "Revisions the grader may send back before the session stops with `grader:max_revisions_reached` (exit 1, resumable); see [loop.md](loop.md#acceptance-criteria-and-the-grader).",
          ),
        maxDiffChars: positiveInt
          .default(100_000)
          .describe("The grader sees the worktree's diff against the base cut at this many characters."),
      })
      .strict()
      .default({ maxRevisions: 3, maxDiffChars: 100_000 }),
    tools: z
      .object({
        commandTimeout: duration.default(120_000).describe("`run_command` timeout."),
        maxResultChars: positiveInt.default(30_000).describe("Tool results above this are truncated, tail kept."),
        /**
         * Environment variables passed to the agent's commands and the gates beyond the default
         * allow-list (PATH, HOME, LANG, ...); `NAME_*` passes a prefix. hatloop's own never pass.
         */
        passEnv: z
          .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, "expected a variable name, or a prefix ending in *"))
          .default([])
          .describe(
            "Environment variables the agent's commands and the gates get beyond the allow-list (`NAME`, or `PREFIX_*`; in the environment as JSON: `HATLOOP_TOOLS__PASS_ENV='[\"NPM_TOKEN\"]'`).",
          ),
        /**
         * The agent's commands and the gates in a PID namespace of their own (Linux, unprivileged user
         * namespaces, util-linux's unshare), so they cannot read hatloop's environment or command line.
         */
        isolate: z
          .enum(["auto", "off"])
          .default("auto")
          .describe(
            "`auto`: the agent's commands and the gates run in a PID namespace of their own where the machine allows it (Linux with unprivileged user namespaces and `unshare`), out of sight of hatloop's process, its environment and command line; `off`: as any child process.",
          ),
        sandbox: sandboxConfigSchema.default(sandboxConfigSchema.parse({})),
      })
      .strict()
      .default({ commandTimeout: 120_000, maxResultChars: 30_000, passEnv: [], isolate: "auto", sandbox: sandboxConfigSchema.parse({}) }),
    /**
     * How long a run's claim on its session (the lease) lasts without renewal; it is renewed every
     * quarter of this. A session whose runner was killed or hung can be resumed after this long.
     */
    leaseTtl: duration
      .default(12_000)
      .describe(
        "How long a run's claim on its session outlives its last renewal (renewed every quarter of it); a stalled runner can be taken over after this.",
      ),
    /**
     * An unreachable database (stopped, restarting, hung, network down) is waited for with backoff
     * for up to outageTimeout, then the run stops (exit 75, resumable). A query with no answer for
     * queryTimeout counts as unreachable (a hung server keeps its connections open).
     */
    database: z
      .object({
        outageTimeout: duration
          .default(300_000)
          .describe("How long an unreachable database is waited for (backoff up to 2 s) before the run stops with exit 75, resumable."),
        queryTimeout: duration
          .refine((ms) => ms >= 1_000, "expected at least 1s")
          .default(30_000)
          .describe("A query with no answer for this long counts as the database being unreachable (a hung server); at least `1s`."),
        linger: duration
          .default(120_000)
          .describe(
            "Embedded database: a short command (`ls`, `show`, `logs`, `handoff`, `watch`, `rm`, `prune`, `db migrate`) that opened the database itself leaves a warm holder process behind as it exits, which stays this long after its last client leaves, so the next command finds the database started. `hatloop db status` shows it, `hatloop db release` stops it. `0`: each command opens it itself ([data.md](data.md#start-up-and-memory)).",
          ),
      })
      .strict()
      .default({ outageTimeout: 300_000, queryTimeout: 30_000, linger: 120_000 }),
    /**
     * The fleet (hatloop submit / worker): how many sessions of one repository run at once across
     * all workers (unset: no limit); the queue's job heartbeat (a job whose worker stops beating this
     * long is handed to another; at least 10s); how often the queue's supervisor looks for such jobs;
     * how often a worker polls for new jobs and for stop requests; how often a session may go back
     * to the queue (drains and crashes) before it is given up; how often, and how far apart, a
     * session's start (clone, fetch, base branch) is tried before it is dead-lettered.
     */
    fleet: z
      .object({
        maxPerRepo: positiveInt.optional().describe("Sessions of one repository that run at once across all workers. Unset: no limit."),
        heartbeat: duration
          .refine((ms) => ms >= 10_000, "expected at least 10s")
          .default(10_000)
          .describe("The queue's job heartbeat: a job whose worker stops beating this long goes to another worker; at least `10s`."),
        supervise: duration
          .refine((ms) => ms >= 1_000, "expected at least 1s")
          .default(2_000)
          .describe("How often the queue's supervisor looks for jobs whose worker stopped."),
        poll: duration
          .refine((ms) => ms >= 500, "expected at least 500ms")
          .default(1_000)
          .describe("How often a worker polls for new jobs and for stop requests."),
        retryLimit: positiveInt
          .default(50)
          .describe("How often a session may go back to the queue (drains and crashes) before it is given up."),
        startAttempts: positiveInt
          .default(5)
          .describe(
            "How often a worker tries to start a session (clone or fetch its repository, find its base branch) before the session is dead-lettered: out of the queue, status `dead-lettered`, until `hatloop retry`.",
          ),
        startBackoff: duration
          .refine((ms) => ms >= 1_000, "expected at least 1s")
          .default(30_000)
          .describe("The wait before a failed start is tried again; it doubles with each failure in a row, up to an hour."),
      })
      .strict()
      .default({ heartbeat: 10_000, supervise: 2_000, poll: 1_000, retryLimit: 50, startAttempts: 5, startBackoff: 30_000 }),
    hooks: hooksConfigSchema.default(hooksConfigSchema.parse({})),
    pr: prConfigSchema.default(prConfigSchema.parse({})),
    mcp: mcpConfigSchema.default(mcpConfigSchema.parse({})),
    /** Where task worktrees go; default: a sibling directory of the repository. */
    worktreeDir: z.string().optional().describe("Where task worktrees go. Unset: beside the repository (`../.hatloop-worktrees/`)."),
  })
  .strict();

export type HatloopConfig = z.output<typeof configSchema>;
export type HatloopConfigInput = z.input<typeof configSchema>;
/** Where Claude is called: the Anthropic API, Amazon Bedrock or Google Vertex AI. */
export type Provider = HatloopConfig["provider"];

export function defaultConfig(): HatloopConfig {
  return configSchema.parse({});
}
