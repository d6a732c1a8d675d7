// Small string helpers shared by the memory modules. Everything that cuts text cuts at a boundary a
// reader can trust (sentence, then word), so nothing stored ever ends in half a word.

/** Collapses all runs of whitespace (including newlines) to single spaces and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** At most `max` characters, cut at a word boundary with an ellipsis when anything was dropped. */
export function truncateAtWord(text: string, max: number): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= max) return flat;
  const room = flat.slice(0, Math.max(1, max - 1));
  const lastSpace = room.lastIndexOf(" ");
  const cut = lastSpace >= max * 0.5 ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s,;:.-]+$/, "")}…`;
}

const SENTENCE_END = /[.!?](?=\s|$)/g;

/**
 * The longest run of whole sentences from the start that fits in `max` characters, or null when even
 * the first sentence does not fit (a fragment is worse than nothing).
 */
export function wholeSentencesWithin(text: string, max: number): string | null {
  const flat = collapseWhitespace(text);
  if (flat.length <= max) return flat;
  let best: string | null = null;
  for (const match of flat.matchAll(SENTENCE_END)) {
    const end = match.index + 1;
    if (end > max) break;
    best = flat.slice(0, end);
  }
  return best;
}

/** Lines of a markdown text with the lines inside ``` / ~~~ fences (and the fences) removed. */
export function linesOutsideCodeFences(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker[0] ?? null;
      else if (marker[0] === fence) fence = null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

/** Strips a leading list bullet, number or task checkbox: "- [ ] x", "* x", "1. x", "2) x". */
export function stripListMarker(line: string): string {
  return line.replace(/^\s*(?:[-*+•]\s+|\d+[.)]\s+)?(?:\[[ xX]\]\s+)?/, "");
}

/** Strips markdown emphasis and inline code marks, keeping the words. */
export function stripMarkdown(text: string): string {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/(^|[\s(])[*_](?=\S)|(?<=\S)[*_](?=[\s).,;:!?]|$)/g, "$1")
    .replace(/`+/g, "");
}

/**
 * Upper-cases the first letter of a sentence that starts with a plain word; a path, identifier or
 * command ("src/app.ts: ...", "npm test", "useState") is left exactly as written.
 */
export function capitalize(text: string): string {
  const first = /^\S+/.exec(text)?.[0] ?? "";
  return /^[a-z]+[,:;]?$/.test(first) && !CODE_WORDS.has(first.replace(/[,:;]$/, "")) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Lower-case words that are commands or keywords, never capitalised. */
const CODE_WORDS = new Set([
  "npm",
  "pnpm",
  "yarn",
  "git",
  "node",
  "npx",
  "make",
  "cargo",
  "go",
  "pytest",
  "const",
  "let",
  "var",
  "true",
  "false",
  "null",
]);
