import type { Message } from "@hatloop/context";

// Search for the in-memory store, close to what the database does (websearch_to_tsquery('english')
// over every string in a message's content, ranked, newest first among equals): words are split on
// what is not a letter or digit, English stop words are dropped, and words are stemmed (Porter's
// first step: plurals, -ed, -ing, -y), so "refreshed tokens" finds "refreshing the token". Keys of
// the content are not searched, as in the database. Not the database's ranking or its parser (it
// keeps file paths and URLs whole): a test that needs those runs on the database.

/** Postgres' english stop words (tsearch_data/english.stop). */
const STOP = new Set(
  (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves " +
    "what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while " +
    "of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there " +
    "when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now"
  ).split(" "),
);

const VOWEL = /[aeiou]/;
/** Porter's measure: the number of vowel-consonant sequences in the stem. */
const measure = (stem: string) =>
  (
    stem
      .replace(/[^aeiouy]+/g, "C")
      .replace(/[aeiouy]+/g, "V")
      .replace(/^C/, "")
      .match(/VC/g) ?? []
  ).length;
const hasVowel = (stem: string) => VOWEL.test(stem) || /.y/.test(stem);
const endsCvc = (w: string) => /[^aeiou][aeiouy][^aeiouwxy]$/.test(w);

/** Porter's step 1 (1a, 1b, 1c): the endings that make most of the difference in search. */
function stem(word: string): string {
  let w = word;
  if (w.length <= 2) return w;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const cut = w.endsWith("ed") ? 2 : w.endsWith("ing") ? 3 : 0;
    if (cut && hasVowel(w.slice(0, -cut))) {
      w = w.slice(0, -cut);
      if (/(at|bl|iz)$/.test(w)) w += "e";
      else if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
      else if (measure(w) === 1 && endsCvc(w)) w += "e";
    }
  }
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  return w;
}

/** The searchable words of a text: lower case, stop words out, stemmed. */
function searchWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)).map(stem);
}

/** Every string in a value (not its keys), as the database's hatloop_search_vector reads content. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/** What a person typed, read as websearch_to_tsquery does: alternatives split by OR, "-word" excluded. */
function parseQuery(query: string): Array<{ all: string[]; none: string[] }> {
  return query
    .split(/\s+OR\s+/)
    .map((part) => {
      const none = (part.match(/(?:^|\s)-([^\s"]+)/g) ?? []).flatMap((w) => searchWords(w.replace(/^\s*-/, "")));
      const all = searchWords(part.replace(/(?:^|\s)-[^\s"]+/g, " "));
      return { all, none };
    })
    .filter((alternative) => alternative.all.length > 0);
}

/** How well `content` matches `query`: 0 when it does not (more matching words rank higher). */
export function matchRank(content: Message["content"], query: string): number {
  const alternatives = parseQuery(query);
  if (alternatives.length === 0) return 0;
  const words = searchWords(stringsOf(content).join("\n"));
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  let best = 0;
  for (const { all, none } of alternatives) {
    if (!all.every((w) => counts.has(w)) || none.some((w) => counts.has(w))) continue;
    const hits = all.reduce((n, w) => n + counts.get(w)!, 0);
    best = Math.max(best, hits / (1 + Math.log(1 + words.length)));
  }
  return best;
}
