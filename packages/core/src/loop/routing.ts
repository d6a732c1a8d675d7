import { routeEvent } from "../hats/router.js";
import { apply } from "./apply.js";
import type { SignalEffects } from "./apply-signals.js";
import type { LoopContext } from "./loop-context.js";

/** The hat change an answer's event asks for (applied to the state), or null when it has none or it is rejected. */
export function route(ctx: LoopContext, effects: SignalEffects): { from: string; topic: string; message: string } | null {
  if (!effects.event) return null;
  const { state, emitter } = ctx;
  const { topic, payload } = effects.event;
  const result = routeEvent(ctx.deps.hats, state.hat, topic);
  if (result.kind === "rejected") {
    emitter.emit("route.rejected", { hat: state.hat.name, topic, reason: result.reason });
    apply(state, { type: "noted", notes: [`EVENT:${topic} was not routed: ${result.reason}.`] });
    return null;
  }
  const from = state.hat.name;
  apply(state, { type: "routed", to: result.to, topic });
  emitter.emit("hat.change", { from, to: result.to.name, topic });
  const p = payload as { message?: string } | undefined;
  const message = typeof p?.message === "string" ? `Message from the ${from}: ${p.message}` : p ? `Payload: ${JSON.stringify(p)}` : "";
  return { from, topic, message };
}
