import { estimatePacketTokens, renderHandoffMarkdown, renderResumePacket, sendableMessages } from "@hatloop/context";
import { contextConfigSchema, defaultConfig, type HatloopConfig } from "@hatloop/core";
import { textTokens } from "../../util/message-text.js";
import { HatloopLoop } from "./hatloop-loop.js";
import type { Strategy } from "./types.js";

// The product itself: createContextManager with defaultConfig().context, driven as the loop drives
// it (hatloop-loop.ts), requests sent through sendableMessages as the loop sends them. Its handoff is the
// lean resume packet a resumed session is given; the full handoff (`hatloop handoff`) is scored too.

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
      ? `the product's pipeline with ${changed.join(", ")} (not the default)`
      : "the product's pipeline with default settings (guard 70/80/90%, middle-out stubs, turn-aware pruning, mechanical summary, recall, resume packet)",
    start(ctx) {
      const loop = new HatloopLoop(ctx, context);
      let entries = 0;
      return {
        async next(appended) {
          await loop.take(appended);
          const live = await loop.beforeCall();
          entries = live.length;
          return sendableMessages(live);
        },
        usage(promptTokens) {
          loop.usage(promptTokens, entries);
        },
        async handoff(appended) {
          await loop.take(appended);
          const handoff = await loop.handoffNow();
          const packet = renderResumePacket(handoff, { storedMessages: loop.storedCount() });
          const full = renderHandoffMarkdown(handoff);
          return {
            text: packet,
            tokens: estimatePacketTokens(packet),
            describe: "resume packet",
            full: { text: full, tokens: textTokens(full), describe: "full handoff (hatloop handoff, Markdown)" },
          };
        },
        stats: () => ({ ...loop.counts }),
        summaryCalls: () => loop.summaries,
      };
    },
  };
}

export const hatloop: Strategy = hatloopStrategy();
