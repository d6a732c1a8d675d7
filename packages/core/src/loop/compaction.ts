import type { ToolSpec } from "../ports/model.js";
import type { LoopContext } from "./loop-context.js";
import { storeEntries } from "./live.js";
import { viewOf } from "./turn-end.js";

/**
 * Asks the context hook whether the live context must shrink; if so, stores what the hook created
 * (summary, recalled context), swaps the live context, records the summary in the scratchpad's
 * "Compacted History" and writes a compaction checkpoint.
 */
export async function applyCompaction(ctx: LoopContext, system: string[], tools: ToolSpec[]): Promise<"interrupted" | "compacted" | "unchanged"> {
  const { state, deps, emitter } = ctx;
  const compaction = await deps.context!.beforeCall(viewOf(ctx, state.live, system, tools), deps.control.signal);
  if (deps.control.interrupted) return "interrupted";
  if (!compaction) return "unchanged";
  await storeEntries(ctx, compaction.live);
  state.live = compaction.live;
  state.stubbed = compaction.stubbed;
  state.contextTokens = compaction.tokensAfter;
  state.anchor = null; // the old anchor measured a different prefix
  state.compactions++;
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
  await ctx.checkpointer.save(state, "compaction");
  return "compacted";
}

const HEADING = "## Compacted History";

/** Appends under the scratchpad's "Compacted History" section, creating it once. */
export function appendCompactedHistory(scratchpad: string, summary: string): string {
  if (!scratchpad.includes(HEADING)) return `${scratchpad.trimEnd()}\n\n${HEADING}\n${summary.trim()}`.trimStart();
  return `${scratchpad.trimEnd()}\n\n${summary.trim()}`;
}
