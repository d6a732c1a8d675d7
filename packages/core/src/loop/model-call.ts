import { ModelError, type ModelRequest, type ModelResponse } from "../ports/model.js";
import { StreamingSignalDetector } from "../signals/streaming.js";
import type { ChecklistItem } from "../store/port.js";
import { emitChecklist, emitChecklistStep, stepChecklist, type ChecklistStep } from "./checklist.js";
import { boundToolInputs } from "./deep-input.js";
import type { LoopContext } from "./loop-context.js";

// One streamed model call. Text deltas go to the event stream as they arrive (coalesced by the
// persister), and checklist signals show on complete lines, applied to a draft of the checklist:
// the call hands back its steps, and only an answer the loop keeps has them written. A retried
// stream, or a call that fails, drops its draft and shows the checklist as it was again. Tool
// inputs come back depth-bounded (deep-input.ts).

export interface ModelCall {
  response: ModelResponse;
  detector: StreamingSignalDetector;
  /** The checklist signals this answer streamed, as steps on the loop's checklist (not applied yet). */
  streamed: ChecklistStep[];
}

export async function callModel(ctx: LoopContext, request: ModelRequest): Promise<ModelCall> {
  const detector = new StreamingSignalDetector();
  const base: readonly ChecklistItem[] = ctx.state.checklist;
  let streamed: ChecklistStep[] = [];
  const drop = () => {
    if (streamed.some((s) => s.write)) emitChecklist(ctx.emitter, base);
    streamed = [];
  };
  ctx.emitter.emit("model.request", { model: request.model, messages: request.messages.length, contextTokens: ctx.state.contextTokens });
  let response: ModelResponse;
  try {
    response = await ctx.deps.model.complete(request, (event) => {
      if (event.type === "text_delta") {
        ctx.emitter.emit("model.text", { text: event.text });
        for (const signal of detector.push(event.text)) {
          // In the order written: a mark must see the item added on the line before.
          const step = stepChecklist(streamed.at(-1)?.checklist ?? base, signal);
          streamed.push(step);
          emitChecklistStep(ctx.emitter, step);
        }
      } else if (event.type === "retry") {
        detector.reset();
        ctx.emitter.emit("model.retry", { attempt: event.attempt, waitMs: event.waitMs, status: event.status, reason: event.reason });
        drop();
      } else if (event.type === "notice") {
        ctx.emitter.emit("model.notice", { message: event.message });
      }
    });
  } catch (error) {
    drop();
    throw error;
  }
  return { response: boundToolInputs(response), detector, streamed };
}

export function isAbort(error: unknown): boolean {
  return error instanceof ModelError && error.aborted;
}
