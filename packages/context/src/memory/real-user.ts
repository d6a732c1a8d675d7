import { MARKERS } from "../markers.js";
import { blocksOf, type Message, type TextBlock } from "../messages.js";

// Injected-text filtering (seed 000, issue 3). hatloop injects gauge lines, resume packets,
// compacted-history summaries, recalled context, removed-result stubs and continuation prompts as
// role "user"; none of that is something a person said. Detection is by content, because the API
// shape has no field for it: every injected text starts with one of MARKERS. A steering message is
// typed by the user in the TUI, so it counts as real.

// Matching ignores case: producers have spelled a heading marker in two cases before ("## Compacted
// history"), and no person starts a message with one of these by accident.
const INJECTED_MARKERS: readonly string[] = Object.entries(MARKERS)
  .filter(([kind]) => kind !== "steer")
  .map(([, marker]) => marker.toLowerCase());

function startsWithMarker(text: string, marker: string): boolean {
  return text.trimStart().slice(0, marker.length).toLowerCase() === marker;
}

/** True when a piece of text was injected by hatloop (starts with a marker other than steering). */
export function isInjectedText(text: string): boolean {
  return INJECTED_MARKERS.some((marker) => startsWithMarker(text, marker));
}

/** True when the text is a steering message typed by the user while the loop runs. */
export function isSteeringText(text: string): boolean {
  return startsWithMarker(text, MARKERS.steer.toLowerCase());
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
