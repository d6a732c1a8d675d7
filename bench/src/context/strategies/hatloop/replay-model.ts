import { estimateTokens, type Message } from "@hatloop/context";
import type { ModelPort, ModelRequest, ModelResponse } from "@hatloop/core";

// The model the product's loop talks to in the bench: each call hands the loop's request out to the
// harness and answers with the transcript's next assistant message, which the harness hands in. The
// reported usage is the request's own size (system, tools and messages, estimated), so the loop
// anchors its measurements as it would on the API's count.

export class ReplayModel implements ModelPort {
  private requested = deferred<ModelRequest>();
  private waitingAnswer: ((answer: Message) => void) | null = null;

  async complete(request: ModelRequest, onEvent?: Parameters<ModelPort["complete"]>[1]): Promise<ModelResponse> {
    const answer = new Promise<Message>((resolve) => (this.waitingAnswer = resolve));
    this.requested.resolve(request);
    const message = await answer;
    const content = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    // Streamed as the API streams it, so signals are seen mid-stream as in a real run.
    for (const block of content) if (block.type === "text") onEvent?.({ type: "text_delta", text: block.text });
    return {
      message: { role: "assistant", content },
      stopReason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
      usage: {
        inputTokens: estimateTokens(request.messages, { system: request.system, tools: request.tools }),
        outputTokens: estimateTokens([message]),
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      },
      costUsd: 0,
      model: request.model,
    };
  }

  /** The loop's pending request, once it asks; the same promise until taken(). */
  nextRequest(): Promise<ModelRequest> {
    return this.requested.promise;
  }

  /** The request from nextRequest() was used: the next one is a new request. */
  taken(): void {
    this.requested = deferred();
  }

  /** Whether the loop waits for an answer. */
  get asking(): boolean {
    return this.waitingAnswer !== null;
  }

  /** Answers the loop's pending call with the transcript's assistant message. */
  answer(message: Message): void {
    const resolve = this.waitingAnswer;
    if (!resolve) throw new Error("the loop is not waiting for an answer");
    this.waitingAnswer = null;
    resolve(message);
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
