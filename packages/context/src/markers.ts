// Text that hatloop itself injects into the conversation starts with one of these markers, so it can
// be recognised later and never mistaken for something the user said (seed 000: injected-text
// filtering). Every producer of injected text must use them; the filters only know these.

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
