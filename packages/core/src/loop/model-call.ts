import { ModelError, type ModelRequest, type ModelResponse } from "../ports/model.js";
import { StreamingSignalDetector } from "../signals/streaming.js";
import type { ChecklistItem } from "../store/port.js";
import { stepChecklist, type ChecklistStep } from "../state/checklist-step.js";
import { checklistSet, checklistStepEvents } from "./checklist-events.js";
import { report } from "./commit.js";
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
    if (streamed.some((s) => s.write)) report(ctx, checklistSet(base));
    streamed = [];
  };
  report(ctx, {
    type: "model.request",
    data: { model: request.model, messages: request.messages.length, contextTokens: ctx.state.contextTokens },
  });
  let response: ModelResponse;
  try {
    response = await ctx.deps.model.complete(request, (event) => {
      if (event.type === "text_delta") {
        // A delta is cut anywhere; a checklist signal's events follow the text up to the end of its
        // line, and the rest of the delta (the start of the next line) comes after them, so no
        // other event ever splits a line of text (printed, stored, or redacted as one stream).
        let shown = 0;
        for (const line of lineEnds(event.text)) {
          const signals = detector.push(event.text.slice(line.start, line.end));
          if (signals.length === 0) continue;
          report(ctx, { type: "model.text", data: { text: event.text.slice(shown, line.end) } });
          shown = line.end;
          for (const signal of signals) {
            // In the order written: a mark must see the item added on the line before.
            const step = stepChecklist(streamed.at(-1)?.checklist ?? base, signal);
            streamed.push(step);
            for (const said of checklistStepEvents(step)) report(ctx, said);
          }
        }
        if (shown < event.text.length) report(ctx, { type: "model.text", data: { text: event.text.slice(shown) } });
      } else if (event.type === "retry") {
        detector.reset();
        report(ctx, {
          type: "model.retry",
          data: { attempt: event.attempt, waitMs: event.waitMs, status: event.status, reason: event.reason },
        });
        drop();
      } else if (event.type === "notice") {
        report(ctx, { type: "model.notice", data: { message: event.message } });
      }
    });
  } catch (error) {
    drop();
    throw error;
  }
  return { response: boundToolInputs(response), detector, streamed };
}

/** A delta in pieces, each ending after a newline (the last one may end without). */
function* lineEnds(text: string): Generator<{ start: number; end: number }> {
  let start = 0;
  for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
    yield { start, end: newline + 1 };
    start = newline + 1;
  }
  if (start < text.length) yield { start, end: text.length };
}

export function isAbort(error: unknown): boolean {
  return error instanceof ModelError && error.aborted;
}
