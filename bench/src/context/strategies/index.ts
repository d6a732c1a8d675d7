import { hatloop } from "./hatloop.js";
import { keepLast10 } from "./keep-last-10.js";
import { middleOutDrop } from "./middle-out-drop.js";
import { observationMasking } from "./observation-masking.js";
import { raw } from "./raw.js";
import { summarizeAtThreshold } from "./summarize-at-threshold.js";
import type { Strategy } from "./types.js";

export type { Handoff, Strategy, StrategyContext } from "./types.js";

/** Every strategy, in report order; all run in the same pass on the same inputs. */
export const STRATEGIES: readonly Strategy[] = [raw, keepLast10, middleOutDrop, observationMasking, summarizeAtThreshold, hatloop];
