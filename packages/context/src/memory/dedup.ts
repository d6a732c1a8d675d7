import { collapseWhitespace, stripListMarker, stripMarkdown } from "./text.js";

// Semantic dedup for decisions and open items (docs/design/checkpoint-quality.md): exact string matching let
// "Send Grigorije a plan" and "- I need to send him a plan" both survive. Three tiers, any match is
// a duplicate: normalised equality, keyword Jaccard >= 0.5 (only with >= 3 keywords in the union,
// so tiny keyword sets cannot collide by accident), and containment of the shorter (>= 10 chars).

/** Function words that carry no meaning for comparing items: English and Serbian (Latin script). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  "the",
  "a",
  "an",
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "being",
  "to",
  "and",
  "or",
  "in",
  "for",
  "with",
  "that",
  "this",
  "of",
  "i",
  "we",
  "it",
  "he",
  "she",
  "they",
  "you",
  "my",
  "our",
  "need",
  "should",
  "will",
  "must",
  "have",
  "has",
  "had",
  "do",
  "does",
  "did",
  "can",
  "could",
  "would",
  "not",
  "no",
  "but",
  "if",
  "so",
  "then",
  // Serbian
  "je",
  "su",
  "sam",
  "si",
  "smo",
  "ste",
  "ili",
  "ali",
  "da",
  "ne",
  "za",
  "na",
  "u",
  "sa",
  "od",
  "iz",
  "taj",
  "ta",
  "ovo",
  "ono",
  "ja",
  "ti",
  "on",
  "ona",
  "mi",
  "vi",
  "oni",
  "treba",
  "moze",
  "mora",
  "ce",
]);

const JACCARD_THRESHOLD = 0.5;
const MIN_UNION_FOR_JACCARD = 3;
const MIN_CONTAINED_LENGTH = 10;

/** Bullets, checkboxes and markdown stripped, whitespace collapsed, lowercased, end punctuation off. */
export function normalizeForDedup(text: string): string {
  const lines = text.split(/\r?\n/).map((line) => stripListMarker(line));
  return collapseWhitespace(stripMarkdown(lines.join(" ")))
    .toLowerCase()
    .replace(/[\s.;:,!]+$/, "");
}

/** Lowercased words of >= 3 characters that are not stop words, edge punctuation removed. */
export function extractKeywords(text: string): Set<string> {
  const words = normalizeForDedup(text)
    .split(" ")
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
  return new Set(words.filter((w) => w.length >= 3 && !STOP_WORDS.has(w)));
}

/** The precomputed forms of one text, so an n×m comparison tokenises each text once. */
export interface DedupForm {
  normalized: string;
  keywords: ReadonlySet<string>;
}

export function dedupForm(text: string): DedupForm {
  return { normalized: normalizeForDedup(text), keywords: extractKeywords(text) };
}

/** isSemanticDuplicate on precomputed forms. */
export function formsAreDuplicates(a: DedupForm, b: DedupForm): boolean {
  if (a.normalized === b.normalized) return a.normalized.length > 0;
  if (jaccardDuplicate(a.keywords, b.keywords)) return true;
  const [shorter, longer] = a.normalized.length <= b.normalized.length ? [a, b] : [b, a];
  return shorter.normalized.length >= MIN_CONTAINED_LENGTH && longer.normalized.includes(shorter.normalized);
}

function jaccardDuplicate(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  let intersection = 0;
  for (const word of a) if (b.has(word)) intersection++;
  const union = a.size + b.size - intersection;
  if (union < MIN_UNION_FOR_JACCARD) return false;
  return intersection / union >= JACCARD_THRESHOLD;
}

/** True when two items say the same thing (see the three tiers above). Symmetric. */
export function isSemanticDuplicate(a: string, b: string): boolean {
  return formsAreDuplicates(dedupForm(a), dedupForm(b));
}
