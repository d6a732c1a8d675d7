import { estimatePacketTokens, renderHandoffMarkdown, renderResumePacket } from "@hatloop/context";
import { mergeAdjacent } from "@hatloop/core";
import { textTokens } from "../../util/message-text.js";
import { HatloopLoop } from "./hatloop-loop.js";
import type { Strategy } from "./types.js";

// The product itself: createContextManager with defaultConfig().context, driven as the loop drives
// it (hatloop-loop.ts), requests sent through mergeAdjacent as the loop sends them. Its handoff is the
// lean resume packet a resumed session is given; the full handoff (`hatloop handoff`) is scored too.

export const hatloop: Strategy = {
  name: "hatloop",
  summary: "the product's pipeline with default settings (guard 70/80/90%, middle-out stubs, turn-aware pruning, mechanical summary, recall, resume packet)",
  start(ctx) {
    const loop = new HatloopLoop(ctx);
    let entries = 0;
    return {
      async next(appended) {
        await loop.take(appended);
        const live = await loop.beforeCall();
        entries = live.length;
        return mergeAdjacent(live);
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
    };
  },
};
