import { referenceLoop } from "./reference-loop.js";
import type { Strategy } from "./types.js";

export const keepLast10: Strategy = {
  name: "keep-last-10",
  summary: "reference loop's plain compaction at 90%: keep the last 10 messages, mechanical summary of the rest into the scratchpad",
  start: (ctx) => referenceLoop(ctx, { progressive: false }),
};
