import { readFile } from "node:fs/promises";
import { errorMessage } from "@hatloop/context";
import { STOP_REASONS, type RefusalDetails, type StopReason } from "@hatloop/core";
import { z } from "zod";

// The scenario file the ScriptedModel replays: JSONL, one model turn (or injected failure) per line.
// The format is documented in the package README; this module only parses and validates it.

const queue = z.enum(["main", "summary", "grader"]).default("main");
const tokens = z.number().int().nonnegative();

const headerLine = z.strictObject({
  scenario: z.strictObject({ model: z.string().min(1).optional(), name: z.string().optional() }),
});

const errorLine = z.strictObject({
  for: queue,
  error: z.strictObject({
    status: z.number().int().min(400).max(599),
    type: z.string().min(1).optional(),
    message: z.string().optional(),
    retry_after_s: z.number().nonnegative().optional(),
  }),
});

const turnLine = z
  .strictObject({
    for: queue,
    text: z.string().optional(),
    tools: z
      .array(
        z.strictObject({ name: z.string().min(1), input: z.record(z.string(), z.unknown()).optional(), id: z.string().min(1).optional() }),
      )
      .optional(),
    usage: z
      .strictObject({
        input_tokens: tokens.optional(),
        output_tokens: tokens.optional(),
        cache_read_input_tokens: tokens.optional(),
        cache_creation_input_tokens: tokens.optional(),
      })
      .optional(),
    stop: z.enum(STOP_REASONS).optional(),
    /** With stop "refusal": the API's stop_details. */
    stop_details: z.strictObject({ category: z.string().nullable().optional(), explanation: z.string().nullable().optional() }).optional(),
    /** With stop "max_tokens": a tool call the output limit cut off (its name). */
    cut_tool: z.string().min(1).optional(),
    delay_ms: z.number().int().nonnegative().max(60_000).optional(),
    chunk_chars: z.number().int().positive().optional(),
  })
  .refine((t) => (t.text ?? "") !== "" || (t.tools?.length ?? 0) > 0 || t.stop === "refusal" || t.cut_tool !== undefined, {
    message: "a turn needs text or tools",
  })
  .refine((t) => t.cut_tool === undefined || t.stop === "max_tokens", { message: "cut_tool goes with stop max_tokens" })
  .refine((t) => t.stop_details === undefined || t.stop === "refusal", { message: "stop_details goes with stop refusal" });

export type ScenarioQueue = "main" | "summary" | "grader";

export interface ScenarioTurn {
  kind: "turn";
  line: number;
  text: string;
  tools: Array<{ name: string; input: Record<string, unknown>; id?: string }>;
  usage: z.infer<typeof turnLine>["usage"];
  stop?: StopReason;
  refusal?: RefusalDetails;
  cutTool?: string;
  delayMs: number;
  chunkChars?: number;
}

export interface ScenarioFailure {
  kind: "error";
  line: number;
  status: number;
  type?: string;
  message?: string;
  retryAfterMs?: number;
}

export type ScenarioStep = ScenarioTurn | ScenarioFailure;

export interface Scenario {
  /** File path (or a label) used in error messages. */
  source: string;
  name: string | null;
  /** The main loop model; requests for any other model are served from `summary`. */
  model: string | null;
  main: ScenarioStep[];
  summary: ScenarioStep[];
  /** Answers to the grader of acceptance criteria (requests with purpose "grader"), whatever their model. */
  grader: ScenarioStep[];
}

export class ScenarioError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${source}:${line}: ${reason}`);
  }
}

export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read scenario ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  return parseScenario(text, path);
}

export function parseScenario(text: string, source = "<scenario>"): Scenario {
  const scenario: Scenario = { source, name: null, model: null, main: [], summary: [], grader: [] };
  let steps = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("//")) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new ScenarioError(source, line, `invalid JSON (${errorMessage(error)})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ScenarioError(source, line, "expected a JSON object");
    }
    if ("scenario" in value) {
      if (steps > 0) throw new ScenarioError(source, line, "the scenario header must come before the turns");
      const header = check(headerLine, value, source, line).scenario;
      scenario.name = header.name ?? null;
      scenario.model = header.model ?? null;
      return;
    }
    steps++;
    if ("error" in value) {
      const { for: target, error } = check(errorLine, value, source, line);
      scenario[target].push({
        kind: "error",
        line,
        status: error.status,
        ...(error.type !== undefined ? { type: error.type } : {}),
        ...(error.message !== undefined ? { message: error.message } : {}),
        ...(error.retry_after_s !== undefined ? { retryAfterMs: error.retry_after_s * 1000 } : {}),
      });
      return;
    }
    const turn = check(turnLine, value, source, line);
    scenario[turn.for].push({
      kind: "turn",
      line,
      text: turn.text ?? "",
      tools: (turn.tools ?? []).map((t) => ({ name: t.name, input: t.input ?? {}, ...(t.id ? { id: t.id } : {}) })),
      usage: turn.usage,
      ...(turn.stop ? { stop: turn.stop } : {}),
      ...(turn.stop === "refusal"
        ? { refusal: { category: turn.stop_details?.category ?? null, explanation: turn.stop_details?.explanation ?? null } }
        : {}),
      ...(turn.cut_tool ? { cutTool: turn.cut_tool } : {}),
      delayMs: turn.delay_ms ?? 0,
      ...(turn.chunk_chars ? { chunkChars: turn.chunk_chars } : {}),
    });
  });
  return scenario;
}

function check<T>(schema: z.ZodType<T>, value: unknown, source: string, line: number): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new ScenarioError(source, line, `${where}${issue?.message ?? "invalid line"}`);
}
