import { referenceLoop } from "./reference-loop.js";
import type { Strategy } from "./types.js";

export const middleOutDrop: Strategy = {
  name: "middle-out-drop",
  summary:
    "reference loop's removal levels 0/10/20/50/100% at 90%, dropping whole tool-result messages middle-out; plain compaction when not enough",
  start: (ctx) => referenceLoop(ctx, { progressive: true }),
};
