// Text that hatloop itself injects into the conversation starts with one of these markers, so it can
// be recognised later and never mistaken for something the user said (docs/design/checkpoint-quality.md: injected
// text is not the user). Every producer of injected text must use them; the filters only know these.

export const MARKERS = {
  /** The context gauge line shown to the model at >= the gauge threshold. */
  gauge: "[Context: ",
  /** The lean packet injected when a session resumes from a checkpoint. */
  resume: "## Resuming session",
  /** A summary of compacted history, as injected into the live context. */
  summary: "## Compacted History",
  /** Stored messages brought back automatically by recall. */
  recalled: "<recalled-context",
  /** The stub that replaces a tool result removed from the live context. */
  removedResult: "[tool result removed from context",
  /** A message typed by the user in the TUI while the loop runs (it IS a real user message). */
  steer: "[Steering from the user]",
  /** The continuation prompt hatloop sends between iterations. */
  continuation: "[hatloop]",
} as const;

/**
 * Text other agents inject as role "user" (checkpoint injection, compaction
 * summaries, token gauge lines). Real transcripts the bench replays carry them. Matched exactly as
 * they write them: case-sensitive, `anywhere` in the text or at its `start`.
 */
export const FOREIGN_MARKERS: readonly { text: string; at: "start" | "anywhere" }[] = [
  { text: "<checkpoint-data", at: "anywhere" },
  { text: "schema: openclaw/checkpoint", at: "anywhere" },
  { text: "Summary unavailable", at: "start" },
  { text: "This summary covers", at: "start" },
  { text: "Token utilization:", at: "start" },
  { text: "## Token Gauge", at: "start" },
];
