import { sendableMessages } from "@hatloop/context";
import { hatToolNames } from "../hats/hat.js";
import type { ContextOverflow, ModelRequest } from "../ports/model.js";
import { systemParts } from "../prompt/build.js";
import { applyCompaction } from "./compaction.js";
import { commit } from "./commit.js";
import type { LoopContext } from "./loop-context.js";

/**
 * The context guard, then the request for the current hat; null when interrupted meanwhile. After
 * an overflow the guard compacts whatever its zones say. The messages go through the one request
 * rule (sendableMessages), so no history, however old, sends what the API rejects.
 */
export async function prepareRequest(ctx: LoopContext, maxTokens: number, overflow?: ContextOverflow): Promise<ModelRequest | null> {
  const { state, deps } = ctx;
  const allowed = hatToolNames(state.hat, ctx.toolNames);
  const tools = [...deps.tools.filter((t) => allowed.has(t.spec.name)), ...ctx.loopTools.values()].map((t) => t.spec);
  const system = systemParts(deps.prompts, state.hat, ctx.memories);
  await commit(ctx, { type: "request-built", system, tools });
  if (deps.context) {
    const compacted = await applyCompaction(ctx, overflow);
    if (compacted === "interrupted") return null;
  }
  const messages = sendableMessages(state.live.map((e) => e.message));
  const chosen = deps.context?.cacheTtl?.(ctx.now(), state.guard);
  if (chosen) await commit(ctx, { type: "guard-updated", guard: chosen.guard });
  const cacheTtl = chosen?.ttl;
  return { model: state.session.model, system, messages, tools, maxTokens, ...(cacheTtl ? { cacheTtl } : {}), signal: deps.control.signal };
}
