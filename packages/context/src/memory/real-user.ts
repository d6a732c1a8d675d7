import { MARKERS } from "../markers.js";
import { blocksOf, type Message, type TextBlock } from "../messages.js";

// Injected-text filtering (seed 000, issue 3). hatloop injects gauge lines, resume packets,
// compacted-history summaries, recalled context, removed-result stubs and continuation prompts as
// role "user"; none of that is something a person said. Detection is by content, because the API
// shape has no field for it: every injected text starts with one of MARKERS. A steering message is
// typed by the user in the TUI, so it counts as real.

const INJECTED_MARKERS: readonly string[] = Object.entries(MARKERS)
  .filter(([kind]) => kind !== "steer")
  .map(([, marker]) => marker);

/** True when a piece of text was injected by hatloop (starts with a marker other than steering). */
export function isInjectedText(text: string): boolean {
  const start = text.trimStart();
  return INJECTED_MARKERS.some((marker) => start.startsWith(marker));
}

/** True when the text is a steering message typed by the user while the loop runs. */
export function isSteeringText(text: string): boolean {
  return text.trimStart().startsWith(MARKERS.steer);
}

function withoutSteerMarker(text: string): string {
  return (isSteeringText(text) ? text.trimStart().slice(MARKERS.steer.length) : text).trim();
}

/** The texts of a user message that a person wrote (steering marker removed), empty ones dropped. */
function humanTexts(message: Message): string[] {
  if (message.role !== "user") return [];
  return blocksOf(message)
    .filter((b): b is TextBlock => b.type === "text" && !isInjectedText(b.text))
    .map((b) => withoutSteerMarker(b.text))
    .filter((t) => t.length > 0);
}

/**
 * False for assistant messages, tool-result-only messages and hatloop's injected text; true for what
 * a person wrote, steering messages included.
 */
export function isRealUserMessage(message: Message): boolean {
  return humanTexts(message).length > 0;
}

/** What the person wrote in a real user message, without the steering marker; "" otherwise. */
export function realUserText(message: Message): string {
  return humanTexts(message).join("\n");
}
