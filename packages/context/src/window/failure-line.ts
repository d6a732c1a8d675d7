import { oneLine } from "./tool-input.js";

// What a line that reports a failure looks like, for every tool that reads command output: the
// stubs and summaries of the context (one telling line) and the quality gates' baseline (every such
// line). Test runners, compilers, linters, stack traces and panics; counters that say nothing
// failed and stack frames are not failures.

const FAILURE_MARKERS: readonly RegExp[] = [
  /^\s*not ok\b/, // TAP
  /[✗✕✖✘×]/,
  /\bFAIL(?:ED|URES?)?\b/, // jest "FAIL", pytest "FAILED", go "--- FAIL:"
  /\bfail(?:ed|ing|ures?)\b/i,
  /\b[A-Za-z]*(?:Error|Exception)\b(?:\s*\[[A-Z_]+\])?:/, // Error:, TypeError:, AssertionError [ERR_ASSERTION]:
  /\bAssertionError\b/,
  /\berror(?:\[E\d+\]|\s+TS\d+)?:/i, // rustc error[E0308]:, tsc error TS2322:, make/gcc error:
  /\s\berror\b\s{2,}\S/, // eslint "  3:7  error  'x' is defined but never used"
  /\bpanic(?:ked)?\b/,
  /^E\s{2,}\S/, // pytest assertion detail
  /Traceback \(most recent call last\)/,
  /\*\*\*.*\bError\b/, // make: *** [target] Error 2
];

const NOT_FAILURES: readonly RegExp[] = [
  /^\s*at\s/, // stack frames change with every edit and add nothing
  /^\s*(?:✓|✔|√|ok\b|PASS\b)/,
  /\b0\s+(?:failed|failing|failures?|errors?)\b/i,
  /\b(?:fail|failed|failures?|errors?)\s*[:=]?\s*0\b(?![.\d])/i,
];

/** True when the line reports a failure (it may still carry ANSI codes; callers strip them). */
export function reportsFailure(line: string): boolean {
  return FAILURE_MARKERS.some((m) => m.test(line)) && !NOT_FAILURES.some((m) => m.test(line));
}

/** What a runner prints under a failing test's name: the error itself. */
const DETAIL = /(\b\w*(Error|Exception)\b|\bexpected\b|\bassert)/i;

/**
 * The first line that reports a failure, if any — with the error on the next line when the runner
 * prints the test's name first ("✖ keeps the session — AssertionError: expected 200 to equal 401"):
 * a failing test is known by its name and its error.
 */
export function failureLine(text: string): string | null {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => reportsFailure(l) && hasWords(l));
  if (at < 0) return null;
  const first = oneLine(lines[at]!);
  const detail = lines
    .slice(at + 1, at + 4)
    .map(oneLine)
    .find(hasWords);
  return detail !== undefined && DETAIL.test(detail) && !DETAIL.test(first) ? `${first} — ${detail}` : first;
}

/** The first line with a few letters or digits — not a blank, a brace or a rule. */
export function firstMeaningfulLine(text: string): string | null {
  return text.split("\n").map(oneLine).find(hasWords) ?? null;
}

function hasWords(line: string): boolean {
  return (line.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 3;
}
