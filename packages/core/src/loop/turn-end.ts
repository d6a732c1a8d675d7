import type { ContentBlock, ToolResultBlock } from "@hatloop/context";
import { MARKERS, redactSecrets } from "@hatloop/context";
import { continuationMessage, hatChangeMessage } from "../prompt/build.js";
import type { ContextView } from "./context-hook.js";
import type { LoopContext } from "./loop-context.js";
import { appendLive, textBlock } from "./live.js";

// The user message that closes an iteration: the tool results (all of them, first, as the API
// requires), then hatloop's notes — steering, the hat change or a continuation, feedback on signals
// and routing, health hints — and the context gauge when the context is filling up.

/** Steering messages kept in full; older ones stay in the transcript and recall. */
const MAX_INSTRUCTIONS = 20;

export interface TurnEnd {
  results: ToolResultBlock[];
  hatChange: { from: string; topic: string; message: string } | null;
}

/** Stores the closing user message; returns whether the warn threshold was crossed. */
export async function closeTurn(ctx: LoopContext, turn: TurnEnd): Promise<{ warnCrossed: boolean }> {
  const { state, deps } = ctx;
  const notes: string[] = [];
  for (const text of deps.control.takeSteering()) {
    notes.push(`${MARKERS.steer} ${text}`);
    state.instructions = [...state.instructions, redactSecrets(text)].slice(-MAX_INSTRUCTIONS);
    ctx.emitter.emit("steer", { text });
  }
  if (turn.hatChange) {
    notes.push(
      hatChangeMessage(deps.prompts, {
        from: turn.hatChange.from,
        to: state.hat.name,
        topic: turn.hatChange.topic,
        message: turn.hatChange.message,
        checklist: state.checklist,
        scratchpad: state.scratchpad,
      }),
    );
  } else if (turn.results.length === 0) {
    notes.push(continuationMessage(deps.prompts, state.hat, state.iteration + 1));
  }
  notes.push(...state.notes.splice(0).map((n) => `${MARKERS.continuation} ${n}`));

  const blocks: ContentBlock[] = [...turn.results];
  if (notes.length) blocks.push(textBlock(notes.join("\n\n")));
  const message = { role: "user" as const, content: blocks };

  let warnCrossed = false;
  const hook = deps.context;
  if (hook) {
    const measurement = hook.measure(viewOf(ctx, [...state.live, { seq: null, message, kind: "conversation" }]));
    state.contextTokens = measurement.tokens;
    warnCrossed = measurement.warnCrossed;
    const gauge = hook.gaugeLine(measurement, state.session.contextWindow, warnCrossed || state.warnCheckpointed);
    if (gauge) blocks.push(textBlock(gauge));
    ctx.emitter.emit("context.gauge", { tokens: measurement.tokens, window: state.session.contextWindow, percent: measurement.percent, zone: measurement.zone });
    if (measurement.zone === "green" || measurement.zone === "gauge") state.warnCheckpointed = false;
  }
  await appendLive(ctx, message);
  return { warnCrossed };
}

export function viewOf(ctx: LoopContext, live = ctx.state.live): ContextView {
  const { state } = ctx;
  return {
    sessionId: state.session.id,
    iteration: state.iteration,
    hat: state.hat.name,
    model: state.session.model,
    contextWindow: state.session.contextWindow,
    live,
    system: state.request.system,
    tools: state.request.tools,
    anchor: state.anchor,
    stubbed: state.stubbed,
    scratchpad: state.scratchpad,
    task: state.session.task,
    instructions: state.instructions,
    openItems: state.checklist.filter((i) => i.status !== "done" && i.status !== "skipped").map((i) => i.description),
    decisions: state.decisions,
  };
}
