// The person's words after the task, as a compaction keeps them in the live context: every message,
// verbatim up to a cap; a longer one is its opening plus a note that the rest is stored (the recall
// tool finds it by its opening words). When all of them together exceed the budget, the oldest are
// shortened first, to a shorter opening, so the newest always stay whole.

/** A message at most this long is kept whole. */
export const VERBATIM_CHARS = 1_500;
/** An older message shortened for the budget keeps this much. */
const SHORT_CHARS = 300;
/** All of them together, about 6,000 tokens. */
const BUDGET_CHARS = 24_000;

export function personWords(messages: readonly string[]): string[] {
  let kept = messages.map((m) => opening(m, VERBATIM_CHARS));
  let total = kept.reduce((n, m) => n + m.length, 0);
  for (let i = 0; i < kept.length - 1 && total > BUDGET_CHARS; i++) {
    const short = opening(messages[i]!, SHORT_CHARS);
    total -= kept[i]!.length - short.length;
    kept = kept.with(i, short);
  }
  return kept;
}

function opening(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const words = text.trim().split(/\s+/).slice(0, 6).join(" ").slice(0, 60);
  return `${head}… [${text.length - max} more characters, stored: recall "${words}"]`;
}
