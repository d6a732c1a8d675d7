// V8 keeps a backtrack entry per character for a counted repeat with no upper bound (`[a-z]{16,}`),
// so a multi-megabyte run throws "Maximum call stack size exceeded"; the same repeat written as
// `[a-z]{16}[a-z]*` is a plain greedy loop and is not limited. The redaction patterns are written
// the readable way and rewritten here.

const CLASS_AT_LEAST = /(\[(?:\\.|[^\]\\])*\])\{(\d+),\}/g;

/** The pattern with every `[class]{n,}` as `[class]{n}[class]*`: same matches, no stack limit. */
export function withUnboundedRuns(pattern: RegExp): RegExp {
  return new RegExp(pattern.source.replace(CLASS_AT_LEAST, "$1{$2}$1*"), pattern.flags);
}
