import type { ContextOverflow } from "../ports/model.js";
import { appendCompactedHistory } from "../context/compacted-history.js";
import { commit } from "./commit.js";
import type { LoopContext } from "./loop-context.js";
import { saveCheckpoint } from "./outcomes.js";
import { viewOf } from "./turn-end.js";

/**
 * Asks the context hook whether the live context must shrink; if so, commits the compaction (what the
 * hook created is stored with it, its summary goes into the scratchpad's "Compacted History") and
 * writes a compaction checkpoint.
 */
export async function applyCompaction(ctx: LoopContext, overflow?: ContextOverflow): Promise<"interrupted" | "compacted" | "unchanged"> {
  const { state, deps } = ctx;
  const { compaction, guard } = await deps.context!.beforeCall(viewOf(ctx), deps.control.signal, overflow);
  // Interrupted meanwhile: nothing of it is kept, so a resume asks again.
  if (deps.control.interrupted) return "interrupted";
  if (!compaction) {
    await commit(ctx, { type: "guard-updated", guard });
    return "unchanged";
  }
  const scratchpad = compaction.summary ? appendCompactedHistory(state.scratchpad, compaction.summary) : state.scratchpad;
  await commit(ctx, { type: "compacted", compaction, scratchpad, guard });
  await saveCheckpoint(ctx, "compaction");
  return "compacted";
}
