import { contextConfigSchema, defaultConfig, type HatloopConfig } from "@hatloop/core";
import { ProductRun } from "./hatloop/product-run.js";
import type { Strategy } from "./types.js";

// The product itself: its runLoop replaying the transcript (hatloop/product-run.ts), with
// defaultConfig().context or a variant. Its handoff is the lean resume packet a resumed session is
// given; the full handoff (`hatloop handoff`) is scored too.

export type ContextOverrides = Partial<HatloopConfig["context"]>;

/**
 * The product with its default context settings, or a named variant with some settings changed
 * (`--hatloop-variant targetPct=50`), reported beside the default, never instead of it.
 */
export function hatloopStrategy(overrides: ContextOverrides = {}): Strategy {
  const changed = Object.entries(overrides).map(([k, v]) => `${k}=${String(v)}`);
  const context = contextConfigSchema.parse({ ...defaultConfig().context, ...overrides });
  return {
    name: changed.length ? `hatloop[${changed.join(",")}]` : "hatloop",
    summary: changed.length
      ? `the product's loop with ${changed.join(", ")} (not the default)`
      : "the product's loop (runLoop) with default settings: anchored guard, cost policy, middle-out stubs, turn-aware pruning, mechanical summary, recall, resume packet",
    start: (ctx) => new ProductRun(ctx, context),
  };
}

export const hatloop: Strategy = hatloopStrategy();
