import type { Message } from "@hatloop/context";
import type { PlantedFact } from "./generator/types.js";

// One session to replay: a synthetic one (with planted facts) or a user's transcript (without).

export interface BenchInput {
  name: string;
  kind: "synthetic" | "transcript";
  messages: Message[];
  /** Ground truth, for synthetic sessions only. */
  facts: PlantedFact[] | null;
  /** The working window the strategies manage, in tokens. */
  window: number;
}
