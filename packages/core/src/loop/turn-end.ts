import type { ContentBlock, ToolResultBlock } from "@hatloop/context";
import { MARKERS } from "@hatloop/context";
import { continuationMessage, hatChangeMessage } from "../prompt/build.js";
import type { ContextView } from "./context-hook.js";
import type { LoopContext } from "./loop-context.js";
import { apply, MAX_INSTRUCTIONS } from "./apply.js";
import { storeMessage, textBlock } from "./live.js";

// The user message that closes an iteration: the tool results (all of them, first, as the API
// requires), then hatloop's notes — steering, the hat change or a continuation, feedback on signals
// and routing, health hints — and the context gauge when the context is filling up.

export interface TurnEnd {
  results: ToolResultBlock[];
  hatChange: { from: string; topic: string; message: string } | null;
}

/** Stores the closing user message and applies it; returns whether the warn threshold was crossed. */
export async function closeTurn(ctx: LoopContext, turn: TurnEnd): Promise<{ warnCrossed: boolean }> {
  const { state, deps } = ctx;
  const notes: string[] = [];
  const steering: string[] = [];
  for (const text of deps.control.takeSteering()) {
    notes.push(`${MARKERS.steer} ${text}`);
    steering.push(text);
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
  notes.push(...state.notes.map((n) => `${MARKERS.continuation} ${n}`));

  const blocks: ContentBlock[] = [...turn.results];
  if (notes.length) blocks.push(textBlock(notes.join("\n\n")));
  const message = { role: "user" as const, content: blocks };

  const hook = deps.context;
  const measurement = hook?.measure(viewOf(ctx, [...state.live, { seq: null, message, kind: "conversation" }], steering)) ?? null;
  if (hook && measurement) {
    const gauge = hook.gaugeLine(measurement, state.session.contextWindow);
    if (gauge) blocks.push(textBlock(gauge));
    ctx.emitter.emit("context.gauge", {
      tokens: measurement.tokens,
      window: state.session.contextWindow,
      percent: measurement.percent,
      zone: measurement.zone,
    });
  }
  const entry = await storeMessage(ctx, message);
  apply(state, { type: "turn-closed", entry, steering, contextTokens: measurement?.tokens ?? null });
  return { warnCrossed: measurement?.warnCrossed ?? false };
}

/**
 * Steering typed between iterations (while paused, say) goes with the iteration starting now, as a
 * user message of its own after the previous closing one (the request sends same-role neighbours as
 * one message). Steering typed during an iteration goes with its closing message, as before.
 */
export async function deliverSteering(ctx: LoopContext): Promise<void> {
  const taken = ctx.deps.control.takeSteering();
  if (taken.length === 0) return;
  for (const text of taken) ctx.emitter.emit("steer", { text });
  const entry = await storeMessage(ctx, { role: "user", content: [textBlock(taken.map((t) => `${MARKERS.steer} ${t}`).join("\n\n"))] });
  apply(ctx.state, { type: "steered", entry, steering: taken });
}

/** What the context hook sees; `steering` not yet applied to the state is included in the instructions. */
export function viewOf(ctx: LoopContext, live = ctx.state.live, steering: string[] = []): ContextView {
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
    instructions: steering.length ? [...state.instructions, ...steering].slice(-MAX_INSTRUCTIONS) : state.instructions,
    openItems: state.checklist.filter((i) => i.status !== "done" && i.status !== "skipped").map((i) => i.description),
    decisions: state.decisions,
    lastFailure: state.lastFailure,
  };
}
