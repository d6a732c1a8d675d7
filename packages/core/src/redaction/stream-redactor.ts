import { redactSecrets } from "@hatloop/context";

// Text that arrives in pieces (the model's streamed reply: stored as one event per flush, shown as
// it streams) must be redacted as one text, or a secret split across two pieces escapes every
// pattern. A StreamRedactor emits, redacted, what can no longer be part of a secret and holds back a
// bounded tail that could still be the start of one: the word being written, a value's introduction
// ("password:", "Authorization: Basic"), an unclosed quoted value, an unfinished private-key block.

/** An unfinished private-key block is held up to this size. */
const MAX_KEY_BLOCK = 16_384;
/** Past this, everything held is emitted (redacted as one piece) whatever it looks like. */
const MAX_HELD = 65_536;
/** Boundaries tried before a cut that a match straddles is given up. */
const MAX_STEPS_BACK = 8;

const BEGIN = "-----BEGIN";
/** A PEM header: a private key's block is a secret, a certificate's is not. */
const HEADER = /^-----BEGIN ([A-Z0-9 ]*)-----/;
const KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
/** Text that the next word may complete into a secret: `password:`, `token =`, `Authorization: Basic`. */
const INTRODUCES_VALUE = /(?:[:=]|\b(?:bearer|basic|token|digest|authorization))\s*$/i;
/** `key = "a quoted value` whose closing quote has not arrived: the value may hold spaces. */
const OPEN_QUOTED_VALUE = /[:=]\s*(["'])[^"'\n]*$/;

export class StreamRedactor {
  /** `pending`: what a previous redactor of the same stream held back. */
  constructor(private pending = "") {}

  /** What is held back, not yet emitted (raw). */
  get held(): string {
    return this.pending;
  }

  /** Adds a piece; returns the redacted text that is now safe to emit (possibly ""). */
  push(piece: string): string {
    this.pending += piece;
    if (this.pending.length > MAX_HELD) return this.end();
    const cut = this.safeCut();
    if (cut <= 0) return "";
    const out = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return redactSecrets(out);
  }

  /** Everything still held, redacted; the stream starts afresh. */
  end(): string {
    const out = redactSecrets(this.pending);
    this.pending = "";
    return out;
  }

  /** Where the held text may be cut: nothing after it can change how the text before it redacts. */
  private safeCut(): number {
    const text = this.pending;
    let cut = wordCut(text);
    const keyStart = openKeyBlock(text);
    if (keyStart !== -1) cut = Math.min(cut, keyStart);
    // A cut is only safe if redacting the two sides apart gives what redacting them together does;
    // else an earlier boundary is tried, a few times, before everything is held for now.
    const whole = cut > 0 ? redactSecrets(text) : "";
    for (let tries = 0; cut > 0 && redactSecrets(text.slice(0, cut)) + redactSecrets(text.slice(cut)) !== whole; tries++) {
      cut = tries < MAX_STEPS_BACK ? wordStartBefore(text, cut) : 0;
    }
    return cut;
  }
}

/** Before the last word (it may still grow, or be a key whose value follows), with what introduces it. */
function wordCut(text: string): number {
  const cut = withIntroduction(text, wordStartBefore(text, text.length));
  if (cut === 0) return 0;
  const lineStart = text.lastIndexOf("\n", cut - 1) + 1;
  const quoted = OPEN_QUOTED_VALUE.exec(text.slice(lineStart, cut));
  return quoted ? withIntroduction(text, wordStartBefore(text, lineStart + quoted.index)) : cut;
}

/**
 * `cut`, moved back over what introduces the text after it: "key = value" stays together whichever
 * side of the cut the "=" fell on, and so does a key that is itself the value of "other: key: value".
 */
function withIntroduction(text: string, cut: number): number {
  const introduced = (at: number) => INTRODUCES_VALUE.test(text.slice(0, at)) || /^\s*[:=]/.test(text.slice(at));
  for (let steps = 0; cut > 0 && steps < 4 && introduced(cut); steps++) cut = wordStartBefore(text, cut);
  return cut;
}

/** The start of the word that ends before `end` (trailing whitespace skipped), or 0. */
function wordStartBefore(text: string, end: number): number {
  let i = end;
  while (i > 0 && isSpace(text.charCodeAt(i - 1))) i--;
  while (i > 0 && !isSpace(text.charCodeAt(i - 1))) i--;
  return i;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/**
 * The start of a PEM block that may be a private key and whose end has not arrived yet (its header
 * still incomplete, or a private key's), held up to MAX_KEY_BLOCK; else -1.
 */
function openKeyBlock(text: string): number {
  const start = text.lastIndexOf(BEGIN);
  if (start === -1 || text.length - start > MAX_KEY_BLOCK) return -1;
  const block = text.slice(start);
  const header = HEADER.exec(block);
  if (header && !header[1]!.includes("PRIVATE KEY")) return -1;
  return KEY_END.test(block) ? -1 : start;
}
