import type { ContextOverflow } from "../ports/model.js";
import type { LoopContext } from "./loop-context.js";
import { storeEntries } from "./live.js";
import { viewOf } from "./turn-end.js";
import { apply } from "./apply.js";
import { saveCheckpoint } from "./outcomes.js";
import { appendCompactedHistory } from "../context/compacted-history.js";

/**
 * Asks the context hook whether the live context must shrink; if so, stores what the hook created
 * (summary, recalled context), records the summary in the scratchpad's "Compacted History", applies
 * the compaction to the loop state and writes a compaction checkpoint.
 */
export async function applyCompaction(ctx: LoopContext, overflow?: ContextOverflow): Promise<"interrupted" | "compacted" | "unchanged"> {
  const { state, deps, emitter } = ctx;
  const compaction = await deps.context!.beforeCall(viewOf(ctx), deps.control.signal, overflow);
  if (deps.control.interrupted) return "interrupted";
  if (!compaction) return "unchanged";
  await storeEntries(ctx, compaction.live);
  if (compaction.cost) await deps.store.sessions.addUsage(state.session.id, compaction.cost.usage, compaction.cost.costUsd);
  const scratchpad = compaction.summary ? appendCompactedHistory(state.scratchpad, compaction.summary) : state.scratchpad;
  if (scratchpad !== state.scratchpad) await deps.store.sessions.update(state.session.id, { scratchpad });
  apply(state, { type: "compacted", compaction, scratchpad });
  emitter.emit("context.compacted", {
    strategy: compaction.strategy,
    level: compaction.level,
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    removed: compaction.removed,
    ...(compaction.summaryFallback ? { summaryFallback: compaction.summaryFallback } : {}),
  });
  await saveCheckpoint(ctx, "compaction");
  return "compacted";
}
