import { routeEvent } from "../hats/router.js";
import type { SignalEffects } from "./apply-signals.js";
import { commit, report } from "./commit.js";
import type { LoopContext } from "./loop-context.js";

/** The hat change an answer's event asks for (committed), or null when it has none or it is rejected. */
export async function route(ctx: LoopContext, effects: SignalEffects): Promise<{ from: string; topic: string; message: string } | null> {
  if (!effects.event) return null;
  const { state } = ctx;
  const { topic, payload } = effects.event;
  const result = routeEvent(ctx.deps.hats, state.hat, topic);
  if (result.kind === "rejected") {
    report(ctx, { type: "route.rejected", data: { hat: state.hat.name, topic, reason: result.reason } });
    await commit(ctx, { type: "noted", notes: [`EVENT:${topic} was not routed: ${result.reason}.`] });
    return null;
  }
  const from = state.hat.name;
  await commit(ctx, { type: "routed", to: result.to, from, topic });
  const p = payload as { message?: string } | undefined;
  const message = typeof p?.message === "string" ? `Message from the ${from}: ${p.message}` : p ? `Payload: ${JSON.stringify(p)}` : "";
  return { from, topic, message };
}
