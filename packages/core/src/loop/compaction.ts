import type { LoopContext } from "./loop-context.js";
import { storeEntries } from "./live.js";
import { viewOf } from "./turn-end.js";
import { addUsage } from "./state.js";
import { appendCompactedHistory } from "../context/compacted-history.js";

/**
 * Asks the context hook whether the live context must shrink; if so, stores what the hook created
 * (summary, recalled context), swaps the live context, records the summary in the scratchpad's
 * "Compacted History" and writes a compaction checkpoint.
 */
export async function applyCompaction(ctx: LoopContext): Promise<"interrupted" | "compacted" | "unchanged"> {
  const { state, deps, emitter } = ctx;
  const compaction = await deps.context!.beforeCall(viewOf(ctx), deps.control.signal);
  if (deps.control.interrupted) return "interrupted";
  if (!compaction) return "unchanged";
  await storeEntries(ctx, compaction.live);
  state.live = compaction.live;
  state.stubbed = compaction.stubbed;
  state.contextTokens = compaction.tokensAfter;
  state.anchor = null; // the old anchor measured a different prefix
  state.compactions++;
  if (compaction.decisions) state.decisions = compaction.decisions;
  if (compaction.cost) {
    state.usage = addUsage(state.usage, compaction.cost.usage);
    state.costUsd += compaction.cost.costUsd;
    await deps.store.sessions.addUsage(state.session.id, compaction.cost.usage, compaction.cost.costUsd);
  }
  if (compaction.summary) {
    state.scratchpad = appendCompactedHistory(state.scratchpad, compaction.summary);
    await deps.store.sessions.update(state.session.id, { scratchpad: state.scratchpad });
  }
  emitter.emit("context.compacted", {
    strategy: compaction.strategy,
    level: compaction.level,
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    removed: compaction.removed,
  });
  state.notes.push(
    `Context compacted (${compaction.strategy}): about ${compaction.tokensBefore} -> ${compaction.tokensAfter} tokens. Removed tool results are stubs naming their archive id; older turns are summarised under Compacted History. Everything is stored: the recall tool fetches any of it.`,
  );
  await ctx.checkpointer.save(state, "compaction");
  return "compacted";
}
