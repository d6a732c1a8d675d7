import { shortId, type LoopEvent } from "@hatloop/core";

// A user in another window should learn that a session needs them: when it completes, fails, pauses
// on a budget, is stopped by loop health or asks them a question, the view rings the terminal — a desktop notification
// (OSC 9 for iTerm2, Windows Terminal, kitty...; OSC 777 for rxvt, foot, WezTerm...) and the bell,
// which tmux and screen pass on as an activity alert. Only on a terminal: never in a pipe.

/** What to say about an event that needs the user, or null. */
export function attentionFor(event: LoopEvent): string | null {
  const id = shortId(event.sessionId);
  if (event.type === "session.end") {
    if (event.data.status === "completed") return `hatloop ${id}: completed`;
    if (event.data.status === "failed") return `hatloop ${id}: failed: ${event.data.reason}`;
    if (event.data.reason.startsWith("budget:")) return `hatloop ${id}: paused at its ${event.data.reason.slice(7)} budget`;
    if (event.data.reason.startsWith("health:")) return `hatloop ${id}: stopped by loop health`;
    return null;
  }
  if (event.type === "session.status" && event.data.status === "waiting") return `hatloop ${id}: asks: ${event.data.reason ?? ""}`;
  if (event.type === "health.warning" && event.data.level === "stop") return `hatloop ${id}: loop health stop: ${event.data.kind}`;
  return null;
}

/** The notification sequences and the bell, for a terminal; the text is kept to plain printable ASCII. */
export function attentionSequence(text: string): string {
  const safe = text
    .replace(/[^\x20-\x7e]/g, "?")
    .replace(/;/g, ",")
    .slice(0, 200);
  return `\x1b]9;${safe}\x07\x1b]777;notify;hatloop;${safe}\x07\x07`;
}

/** Rings `stream` for `event` when it needs the user (and `stream` is a terminal). */
export function ringFor(event: LoopEvent, stream: NodeJS.WriteStream = process.stdout): void {
  const text = attentionFor(event);
  if (text && stream.isTTY) stream.write(attentionSequence(text));
}
