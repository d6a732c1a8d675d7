import type { ContentBlock, ToolResultBlock } from "@hatloop/context";
import { MARKERS } from "@hatloop/context";
import { continuationMessage, hatChangeMessage } from "../prompt/build.js";
import type { ContextView, Measurement } from "../state/context-hook.js";
import type { GuardState } from "../state/guard.js";
import type { LiveEntry } from "../state/live-entry.js";
import { MAX_INSTRUCTIONS } from "../state/loop-state.js";
import { commit } from "./commit.js";
import type { LoopContext } from "./loop-context.js";
import { textBlock } from "./text-block.js";

// The user message that closes an iteration: the tool results (all of them, first, as the API
// requires), then hatloop's notes — steering, the hat change or a continuation, feedback on signals
// and routing, health hints — and the context gauge when the context is filling up.

export interface TurnEnd {
  results: ToolResultBlock[];
  hatChange: { from: string; topic: string; message: string } | null;
}

/** Commits the closing user message; returns whether the warn threshold was crossed. */
export async function closeTurn(ctx: LoopContext, turn: TurnEnd): Promise<{ warnCrossed: boolean }> {
  const { state, deps } = ctx;
  const notes: string[] = [];
  const steering = deps.control.takeSteering();
  for (const text of steering) notes.push(`${MARKERS.steer} ${text}`);
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
  let measured: { measurement: Measurement; guard: GuardState } | null = null;
  if (hook) {
    measured = hook.measure(viewOf(ctx, [...state.live, { seq: null, message, kind: "conversation" }], steering));
    const gauge = hook.gaugeLine(measured.measurement, state.session.contextWindow);
    if (gauge) blocks.push(textBlock(gauge));
  }
  await commit(ctx, { type: "turn-closed", message, steering, measurement: measured?.measurement ?? null, guard: measured?.guard ?? null });
  return { warnCrossed: measured?.measurement.warnCrossed ?? false };
}

/**
 * Steering typed between iterations (while paused, say) goes with the iteration starting now, as a
 * user message of its own after the previous closing one (the request sends same-role neighbours as
 * one message). Steering typed during an iteration goes with its closing message, as before.
 */
export async function deliverSteering(ctx: LoopContext): Promise<void> {
  const taken = ctx.deps.control.takeSteering();
  if (taken.length === 0) return;
  const message = { role: "user" as const, content: [textBlock(taken.map((t) => `${MARKERS.steer} ${t}`).join("\n\n"))] };
  await commit(ctx, { type: "steered", message, steering: taken });
}

/** What the context hook sees; `steering` not yet applied to the state is included in the instructions. */
export function viewOf(ctx: LoopContext, live: readonly LiveEntry[] = ctx.state.live, steering: string[] = []): ContextView {
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
    guard: state.guard,
  };
}
