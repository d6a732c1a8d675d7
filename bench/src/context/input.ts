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
  /** When each message was recorded (epoch ms, null where unknown): transcripts only. */
  times?: (number | null)[];
  /** The agent's own compactions in the recorded session (corpus only): ground truth for the summary stand-in. */
  compactions?: RecordedCompaction[];
}

export interface RecordedCompaction {
  agent: string;
  /** The first message the agent sent after it. */
  beforeMessage: number;
  /** The first message the agent kept verbatim after its summary (= beforeMessage when it kept none). */
  keptFrom: number;
  summary: string;
}
