import { shortId, type LoopEvent } from "@hatloop/core";

// A user in another window should learn that a session needs them: when it completes, fails, pauses
// on a budget, is stopped by loop health or asks them a question, the view rings the terminal — a desktop notification
// (OSC 9 for iTerm2, Windows Terminal, kitty...; OSC 777 for rxvt, foot, WezTerm...) and the bell,
// which tmux and screen pass on as an activity alert. Only on a terminal: never in a pipe. Inside
// tmux ($TMUX set), tmux would swallow the OSCs: each goes wrapped in tmux's DCS passthrough
// (ESC P tmux; ... ESC \, every ESC inside doubled), which tmux hands to the terminal it runs in
// when its `allow-passthrough` option is on (off by default since tmux 3.3).

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

/**
 * The notification sequences and the bell, for a terminal; the text is kept to plain printable ASCII.
 * `tmux`: wrapped for tmux's passthrough (the bell stays outside: tmux rings it as a bell).
 */
export function attentionSequence(text: string, tmux = false): string {
  const safe = text
    .replace(/[^\x20-\x7e]/g, "?")
    .replace(/;/g, ",")
    .slice(0, 200);
  const notices = [`\x1b]9;${safe}\x07`, `\x1b]777;notify;hatloop;${safe}\x07`];
  return `${notices.map((seq) => (tmux ? tmuxPassthrough(seq) : seq)).join("")}\x07`;
}

/** `seq` in tmux's DCS passthrough. */
function tmuxPassthrough(seq: string): string {
  return `\x1bPtmux;${seq.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`;
}

/** Rings `stream` for `event` when it needs the user (and `stream` is a terminal). */
export function ringFor(event: LoopEvent, stream: NodeJS.WriteStream = process.stdout): void {
  const text = attentionFor(event);
  if (text && stream.isTTY) stream.write(attentionSequence(text, Boolean(process.env.TMUX)));
}
