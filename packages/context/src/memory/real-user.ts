import { FOREIGN_MARKERS, FOREIGN_TAGS, MARKERS } from "../markers.js";
import { blocksOf, type Message, type TextBlock } from "../messages.js";

// Injected-text filtering (docs/design/checkpoint-quality.md). hatloop injects gauge lines, resume packets,
// compacted-history summaries, recalled context, removed-result stubs and continuation prompts as
// role "user"; other agents inject checkpoints, summaries and gauge lines the same way (their
// transcripts are replayed by the bench). None of that is something a person said. Detection is by
// content, because the API shape has no field for it. A steering message is typed by the user in
// the TUI, so it counts as real.

interface InjectedMarker {
  text: string;
  at: "start" | "anywhere";
  anyCase: boolean;
}

// hatloop's own markers ignore case: producers have spelled a heading marker in two cases before
// ("## Compacted history"), and no person starts a message with one of these by accident. Other
// agents' markers are matched as those agents write them.
const INJECTED_MARKERS: readonly InjectedMarker[] = [
  ...Object.entries(MARKERS)
    .filter(([kind]) => kind !== "steer")
    .map(([, text]): InjectedMarker => ({ text: text.toLowerCase(), at: "start", anyCase: true })),
  ...FOREIGN_MARKERS.map((m): InjectedMarker => ({ ...m, anyCase: false })),
];

function hasMarker(text: string, marker: InjectedMarker): boolean {
  const t = marker.anyCase ? text.toLowerCase() : text;
  return marker.at === "anywhere" ? t.includes(marker.text) : t.trimStart().startsWith(marker.text);
}

function startsWithMarker(text: string, marker: string): boolean {
  return text.trimStart().slice(0, marker.length).toLowerCase() === marker;
}

/** True when a piece of text was injected by hatloop or another agent (steering excepted). */
export function isInjectedText(text: string): boolean {
  return INJECTED_MARKERS.some((marker) => hasMarker(text, marker));
}

/** True when the text is a steering message typed by the user while the loop runs. */
export function isSteeringText(text: string): boolean {
  return startsWithMarker(text, MARKERS.steer.toLowerCase());
}

function withoutSteerMarker(text: string): string {
  return (isSteeringText(text) ? text.trimStart().slice(MARKERS.steer.length) : text).trim();
}

// A segment opens at the start of a line and closes at the end of one: the tags are also named
// inside such text ("a new `<collaboration_mode>...</collaboration_mode>` changes it").
const FOREIGN_SEGMENT = new RegExp(`(?:^|\\n)[ \\t]*<(${FOREIGN_TAGS.map(escapeRegExp).join("|")})>[\\s\\S]*?</\\1>[ \\t]*(?=\\n|$)`, "g");

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The text without the segments other agents injected in their own tags. */
function withoutForeignSegments(text: string): string {
  return text.includes("<") ? text.replace(FOREIGN_SEGMENT, "").trim() : text;
}

/** The texts of a user message that a person wrote (steering marker removed), empty ones dropped. */
function humanTexts(message: Message): string[] {
  if (message.role !== "user") return [];
  return blocksOf(message)
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => withoutForeignSegments(b.text))
    .filter((t) => !isInjectedText(t))
    .map(withoutSteerMarker)
    .filter((t) => t.length > 0);
}

/**
 * False for assistant messages, tool-result-only messages and injected text; true for what a person
 * wrote, steering messages included. Judged per text block, so an injected block never hides the
 * person's words beside it, nor counts as them.
 */
export function isRealUserMessage(message: Message): boolean {
  return humanTexts(message).length > 0;
}

/** What the person wrote in a real user message, without the steering marker; "" otherwise. */
export function realUserText(message: Message): string {
  return humanTexts(message).join("\n");
}
