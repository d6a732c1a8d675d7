import type { ContentBlock } from "@hatloop/context";
import { ModelError, type ModelPort, type ModelRequest, type ModelResponse, type ModelStreamEvent, type Usage } from "@hatloop/core";
import { toCreateParams } from "../anthropic/request-params.js";
import { costOf, maxOutputTokensOf } from "../pricing.js";
import { requestProblems } from "../request-rules/validate-request.js";
import { ApiFailure, errorTypeOfStatus, isRetriableStatus } from "../retry/api-failure.js";
import {
  abortedError,
  DEFAULT_RETRY_OPTIONS,
  type RetryOptions,
  type Sleep,
  sleepUnlessAborted,
  timerSleep,
  withRetries,
} from "../retry/with-retries.js";
import type { Scenario, ScenarioFailure, ScenarioQueue, ScenarioStep, ScenarioTurn } from "./scenario.js";
import { estimateUsage, type PromptShape, promptShape, promptTokens } from "./scripted-usage.js";
import { chunkText } from "./text-chunks.js";

export interface ScriptedModelOptions {
  /** Main turns already consumed (a resumed session passes its iteration count). */
  startAt?: number;
  /** Grader turns already consumed (a resumed session passes its gradings). */
  graderStartAt?: number;
  /** The main model; overrides the scenario header. Without either, the first request's model is main. */
  model?: string;
  /** Retry policy for injected failures; its sleep also times the waits. */
  retry?: Partial<RetryOptions>;
  /** Times delay_ms between text chunks; tests pass a no-op. */
  sleep?: Sleep;
}

const DEFAULT_CHUNK_CHARS = 12;

interface Cursor {
  index: number;
  served: number;
  previous: PromptShape | null;
}

/**
 * ModelPort that replays a scenario: each complete() plays the next turn of the main queue, of the
 * grader queue for the grader's requests, or of the summary queue when the request names another model. Injected failures go through the same
 * retry policy as the real client, so callers see a `retry` event and then the next turn.
 */
export class ScriptedModel implements ModelPort {
  private readonly cursors: Record<ScenarioQueue, Cursor>;
  private readonly retry: RetryOptions;
  private readonly sleep: Sleep;
  private mainModel: string | null;

  constructor(
    private readonly scenario: Scenario,
    options: ScriptedModelOptions = {},
  ) {
    const startAt = Math.max(0, options.startAt ?? 0);
    this.cursors = {
      main: { index: skipTurns(scenario.main, startAt), served: startAt, previous: null },
      summary: { index: 0, served: 0, previous: null },
      grader: { index: skipTurns(scenario.grader, options.graderStartAt ?? 0), served: 0, previous: null },
    };
    this.retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
    this.sleep = options.sleep ?? timerSleep;
    this.mainModel = options.model ?? scenario.model;
  }

  /** Main turns consumed so far, startAt included. */
  get position(): number {
    return this.cursors.main.served;
  }

  complete(request: ModelRequest, onEvent?: (event: ModelStreamEvent) => void): Promise<ModelResponse> {
    // What the API would reject, a scripted run rejects too: the demo and the tests cannot pass on it.
    const problems = requestProblems(toCreateParams(request));
    if (problems.length) return Promise.reject(new ModelError(`Anthropic API error 400 invalid_request_error: ${problems[0]}`, 400));
    this.mainModel ??= request.model;
    const queue: ScenarioQueue = request.purpose === "grader" ? "grader" : request.model === this.mainModel ? "main" : "summary";
    const steps = this.scenario[queue];
    const cursor = this.cursors[queue];
    return withRetries(
      async () => {
        const step = steps[cursor.index];
        if (step === undefined) throw this.exhausted(queue, request.model);
        if (step.kind === "error") {
          cursor.index++;
          throw this.failure(step);
        }
        const response = await this.play(step, queue, request, onEvent);
        cursor.index++;
        cursor.served++;
        return response;
      },
      this.retry,
      request.signal,
      onEvent,
    );
  }

  async countTokens(request: Omit<ModelRequest, "maxTokens">): Promise<number> {
    return promptTokens(promptShape(request));
  }

  private async play(
    turn: ScenarioTurn,
    queue: ScenarioQueue,
    request: ModelRequest,
    onEvent: ((event: ModelStreamEvent) => void) | undefined,
  ): Promise<ModelResponse> {
    const pieces = turn.text ? chunkText(turn.text, turn.chunkChars ?? DEFAULT_CHUNK_CHARS) : [];
    for (const [i, piece] of pieces.entries()) {
      if (i > 0 && turn.delayMs > 0) await sleepUnlessAborted(turn.delayMs, this.sleep, request.signal);
      if (request.signal?.aborted) throw abortedError();
      onEvent?.({ type: "text_delta", text: piece });
    }
    if (request.signal?.aborted) throw abortedError();
    const turnNumber = this.cursors[queue].served + 1;
    const prefix = { main: `toolu_s${turnNumber}`, summary: `toolu_sum${turnNumber}`, grader: `toolu_grade${turnNumber}` }[queue];
    const content: ContentBlock[] = turn.text ? [{ type: "text", text: turn.text }] : [];
    for (const [i, tool] of turn.tools.entries()) {
      const id = tool.id ?? `${prefix}_${i + 1}`;
      onEvent?.({ type: "tool_use_start", id, name: tool.name });
      content.push({ type: "tool_use", id, name: tool.name, input: tool.input });
    }
    if (turn.cutTool) onEvent?.({ type: "tool_use_start", id: `${prefix}_cut`, name: turn.cutTool });
    const usage = this.usageOf(turn, queue, request);
    return {
      message: { role: "assistant", content },
      stopReason: turn.stop ?? (turn.tools.length > 0 ? "tool_use" : "end_turn"),
      usage,
      costUsd: costOf(request.model, usage),
      model: request.model,
      ...(turn.refusal ? { refusal: turn.refusal } : {}),
      ...(turn.cutTool ? { truncatedTools: [turn.cutTool] } : {}),
    };
  }

  maxOutputTokens(model: string): number {
    return maxOutputTokensOf(model);
  }

  private usageOf(turn: ScenarioTurn, queue: ScenarioQueue, request: ModelRequest): Usage {
    const cursor = this.cursors[queue];
    const shape = promptShape(request);
    const outputChars = turn.text.length + turn.tools.reduce((n, t) => n + t.name.length + JSON.stringify(t.input).length, 0);
    const estimate = estimateUsage(shape, cursor.previous, outputChars);
    cursor.previous = shape;
    const stated = turn.usage ?? {};
    return {
      inputTokens: stated.input_tokens ?? estimate.inputTokens,
      outputTokens: stated.output_tokens ?? estimate.outputTokens,
      cacheReadTokens: stated.cache_read_input_tokens ?? estimate.cacheReadTokens,
      cacheWriteTokens: stated.cache_creation_input_tokens ?? estimate.cacheWriteTokens,
    };
  }

  private failure(step: ScenarioFailure): ApiFailure {
    const type = step.type ?? errorTypeOfStatus(step.status);
    const message = `Anthropic API error ${step.status} ${type}: ${step.message ?? type} (scripted, ${this.scenario.source}:${step.line})`;
    return new ApiFailure(message, step.status, isRetriableStatus(step.status), step.retryAfterMs ?? null);
  }

  private exhausted(queue: ScenarioQueue, model: string): ModelError {
    if (queue === "main") return new ModelError(`scenario exhausted at turn ${this.position + 1}`, null);
    if (queue === "grader") return new ModelError(`scenario has no grader turn left (${this.scenario.source})`, null);
    return new ModelError(`scenario has no summary turn left for model ${model} (${this.scenario.source})`, null);
  }
}

/** Index just past the first `count` turns, injected failures before them included. */
function skipTurns(steps: ScenarioStep[], count: number): number {
  let turns = 0;
  let index = 0;
  while (index < steps.length && turns < count) {
    if (steps[index]?.kind === "turn") turns++;
    index++;
  }
  return index;
}
