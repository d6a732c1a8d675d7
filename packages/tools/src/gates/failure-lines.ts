import { stripVTControlCharacters } from "node:util";
import { reportsFailure } from "@hatloop/context";

// Failure lines are what the baseline compares: the lines of a failing check's output that name a
// failure (reportsFailure, shared with the context's stubs and summaries), normalised so that the
// same failure reads the same in every run (durations, timestamps, line numbers, absolute paths and
// test counters removed).

const MAX_LINES = 200;
const MAX_LINE_CHARS = 300;
/** When no line looks like a failure, the last few lines stand in as the failure's signature. */
const FALLBACK_TAIL_LINES = 3;

export function extractFailureLines(output: string): string[] {
  const lines = stripVTControlCharacters(output).split(/\r?\n/);
  const found = new Set<string>();
  for (const line of lines) {
    if (!reportsFailure(line)) continue;
    const normalised = normaliseFailureLine(line);
    if (normalised.length > 0) found.add(normalised);
    if (found.size >= MAX_LINES) break;
  }
  if (found.size > 0) return [...found];
  return lines
    .map(normaliseFailureLine)
    .filter((l) => l.length > 0 && !l.startsWith("[... "))
    .slice(-FALLBACK_TAIL_LINES);
}

const COUNTED_WORDS = "failed|failing|failures?|passed|passing|pass|fail|skipped|pending|todo|cancelled|errors?|tests?|suites?|files?";

export function normaliseFailureLine(line: string): string {
  return (
    stripVTControlCharacters(line)
      // ISO and clock timestamps.
      .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<time>")
      .replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<time>")
      // Absolute paths and file URLs: keep the file name, drop machine- and run-specific dirs.
      .replace(/(?:file:\/\/)?(?:\/[\w.@+-]+)+\/([\w.@+-]+)/g, "$1")
      .replace(/\b[A-Za-z]:\\(?:[\w.@+ -]+\\)*([\w.@+-]+)/g, "$1")
      // Line and column numbers after a file name, and "line 12".
      .replace(/(\.[A-Za-z][\w]*)(?::\d+){1,2}\b/g, "$1")
      .replace(/(\.[A-Za-z][\w]*)\(\d+(?:,\d+)?\)/g, "$1")
      .replace(/\bline \d+/gi, "line N")
      .replace(/^\s*\d+:\d+\s+/, "") // eslint's leading "12:5"
      // Durations: (12ms), 1.5s, duration_ms: 3.2, [0.01 sec].
      .replace(/duration_ms:?\s*[\d.]+/g, "duration_ms")
      .replace(/[([]?\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds?|µs|us|ns|m|min)\b[)\]]?/g, "")
      // Pointers and long hashes.
      .replace(/\b0x[0-9a-f]{4,}\b/gi, "0x?")
      .replace(/\b[0-9a-f]{12,}\b/g, "<hash>")
      // Counters: "not ok 12 -", "3 failed", "fail: 2", "Tests: 1 failed | 4 passed".
      .replace(/^(\s*not ok)\s+\d+/, "$1")
      .replace(new RegExp(`\\b\\d+\\s+(${COUNTED_WORDS})\\b`, "gi"), "N $1")
      .replace(new RegExp(`\\b(${COUNTED_WORDS})\\s*([:=]?)\\s*\\d+\\b`, "gi"), "$1$2 N")
      .replace(/\(\d+\)/g, "(N)") // totals such as "| 3 passed (4)"
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, MAX_LINE_CHARS)
  );
}
