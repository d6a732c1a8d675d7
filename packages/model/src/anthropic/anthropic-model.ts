import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { ModelPort, ModelRequest, ModelResponse, ModelStreamEvent } from "@hatloop/core";
import { costOf, maxOutputTokensOf, webSearchCostOf, type PriceOptions } from "../pricing.js";
import { abortedError, DEFAULT_RETRY_OPTIONS, type RetryOptions, withRetries } from "../retry/with-retries.js";
import { ApiFailure } from "../retry/api-failure.js";
import { toApiFailure } from "./classify-error.js";
import { IdleWatchdog } from "./idle-watchdog.js";
import { SdkNotices } from "./sdk-notices.js";
import { toCountParams, toCreateParams } from "./request-params.js";
import { ResponseAccumulator } from "./response-accumulator.js";

export interface AnthropicModelOptions {
  /** Defaults to ANTHROPIC_API_KEY (then the SDK's other credential sources). */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL, then https://api.anthropic.com. */
  baseURL?: string;
  /** Timeout for the response headers of one attempt; the SDK default (10 minutes) otherwise. */
  timeoutMs?: number;
  /** A stream silent this long (not even a ping) is treated as dropped and retried. Default 120 s. */
  streamIdleTimeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  retry?: Partial<RetryOptions>;
  /** A cloud provider's client (AnthropicBedrock, AnthropicVertex): apiKey, baseURL, timeoutMs and defaultHeaders then go to it. */
  client?: MessagesClient;
  /** How the endpoint is priced (a cloud's regional endpoint costs more). */
  pricing?: PriceOptions;
}

/** What the model needs of a client: Anthropic's, or a provider SDK's subclass of the same base (Bedrock has no token counting). */
export interface MessagesClient {
  baseURL: string;
  messages: Pick<Anthropic["messages"], "create"> & Partial<Pick<Anthropic["messages"], "countTokens">>;
}

/** ModelPort over the official SDK: streaming, tool use, prompt caching, cost, and its own retries. */
export class AnthropicModel implements ModelPort {
  private readonly client: MessagesClient;
  private readonly pricing: PriceOptions;
  private readonly retry: RetryOptions;
  private readonly streamIdleTimeoutMs: number;
  private readonly notices = new SdkNotices();

  constructor(options: AnthropicModelOptions = {}) {
    // maxRetries 0: the SDK would otherwise retry silently; ours reports every wait as an event.
    this.client =
      options.client ??
      new Anthropic({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        timeout: options.timeoutMs,
        defaultHeaders: options.defaultHeaders,
        maxRetries: 0,
      });
    this.pricing = options.pricing ?? {};
    this.retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? 120_000;
  }

  complete(request: ModelRequest, onEvent?: (event: ModelStreamEvent) => void): Promise<ModelResponse> {
    const params = toCreateParams(request);
    return withRetries(() => this.attempt(params, request, onEvent), this.retry, request.signal, onEvent);
  }

  maxOutputTokens(model: string): number {
    return maxOutputTokensOf(model);
  }

  async countTokens(request: Omit<ModelRequest, "maxTokens">): Promise<number> {
    const params = toCountParams(request);
    const count = this.client.messages.countTokens?.bind(this.client.messages);
    if (!count) throw new ApiFailure(`this provider does not count tokens (${this.client.baseURL})`, null, false);
    return withRetries(
      async () => {
        try {
          const counted = await count(params, { signal: request.signal });
          return counted.input_tokens;
        } catch (error) {
          throw toApiFailure(error, "request", this.client.baseURL);
        }
      },
      this.retry,
      request.signal,
    );
  }

  /** One attempt: a fresh accumulator, so nothing from a failed attempt reaches the final message. */
  private async attempt(
    params: MessageCreateParamsStreaming,
    request: ModelRequest,
    onEvent: ((event: ModelStreamEvent) => void) | undefined,
  ): Promise<ModelResponse> {
    // Our own controller lets the idle watchdog end this attempt without aborting the caller's signal.
    const attemptController = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, attemptController.signal]) : attemptController.signal;
    let stream: AsyncIterable<RawMessageStreamEvent> & { controller: AbortController };
    try {
      // The SDK warns about deprecated models on the console at every request; we say it once, as an event.
      stream = await this.notices.capture(() => this.client.messages.create(params, { signal }), onEvent);
    } catch (error) {
      throw toApiFailure(error, "request", this.client.baseURL);
    }
    const accumulator = new ResponseAccumulator(onEvent);
    const watchdog = new IdleWatchdog(this.streamIdleTimeoutMs, () => attemptController.abort());
    const events = stream[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<RawMessageStreamEvent>;
        try {
          next = await events.next();
        } catch (error) {
          throw watchdog.fired ? idleFailure(this.streamIdleTimeoutMs) : toApiFailure(error, "stream", this.client.baseURL);
        }
        if (next.done) break;
        watchdog.reset();
        accumulator.apply(next.value);
      }
    } finally {
      watchdog.stop();
      // Ends the HTTP request if we leave early (a listener threw, a failure); a no-op when done.
      stream.controller.abort();
    }
    // The SDK ends the iteration quietly on abort; without these checks a cut-off response would look complete.
    if (request.signal?.aborted) throw abortedError();
    if (watchdog.fired) throw idleFailure(this.streamIdleTimeoutMs);
    const { model, webSearchRequests, cacheWrite1hTokens, ...response } = accumulator.finish();
    const costUsd = costOf(request.model, response.usage, this.pricing, cacheWrite1hTokens) + webSearchCostOf(webSearchRequests);
    return { ...response, costUsd, model: model || request.model };
  }
}

function idleFailure(idleMs: number): ApiFailure {
  return new ApiFailure(`no stream event for ${idleMs} ms, connection presumed dead`, null, true);
}
