import { hatloop } from "./hatloop.js";
import { keepLast10 } from "./keep-last-10.js";
import { middleOutDrop } from "./middle-out-drop.js";
import { observationMasking } from "./observation-masking.js";
import { PEER_DEFAULTS, PEER_SWEEPS } from "./peers.js";
import { raw } from "./raw.js";
import type { Strategy } from "./types.js";

export type { Handoff, Strategy, StrategyContext } from "./types.js";

/** The strategies at their defaults, in report order; all run in the same pass on the same inputs. */
export const STRATEGIES: readonly Strategy[] = [raw, keepLast10, middleOutDrop, observationMasking, ...PEER_DEFAULTS, hatloop];

/** Every strategy, with the peers' settings swept (the frontier). */
export const ALL_STRATEGIES: readonly Strategy[] = [...STRATEGIES.slice(0, -1), ...PEER_SWEEPS, hatloop];
