import { ModelError, type ModelRequest, type ModelResponse } from "../ports/model.js";
import { StreamingSignalDetector } from "../signals/streaming.js";
import { applyChecklist } from "./apply-signals.js";
import type { LoopContext } from "./loop-context.js";

// One streamed model call. Text deltas go to the event stream as they arrive (coalesced by the
// persister), checklist signals act on complete lines, and a retry voids the partial text.

export interface ModelCall {
  response: ModelResponse;
  detector: StreamingSignalDetector;
}

export async function callModel(ctx: LoopContext, request: ModelRequest): Promise<ModelCall> {
  const detector = new StreamingSignalDetector();
  const pending: Array<Promise<unknown>> = [];
  ctx.emitter.emit("model.request", { model: request.model, messages: request.messages.length, contextTokens: ctx.state.contextTokens });
  const response = await ctx.deps.model.complete(request, (event) => {
    if (event.type === "text_delta") {
      ctx.emitter.emit("model.text", { text: event.text });
      for (const signal of detector.push(event.text)) pending.push(applyChecklist(ctx, signal));
    } else if (event.type === "retry") {
      detector.reset();
      ctx.emitter.emit("model.retry", { attempt: event.attempt, waitMs: event.waitMs, status: event.status, reason: event.reason });
    }
  });
  await Promise.all(pending);
  return { response, detector };
}

export function isAbort(error: unknown): boolean {
  return error instanceof ModelError && error.aborted;
}
