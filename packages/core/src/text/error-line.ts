import { errorMessage } from "@hatloop/context";

// An error as hatloop stores and prints it (stop reason, last error, error events): one line, capped.
// A database error's message carries the whole query and its parameters — megabytes over many lines —
// and the reason is its cause ("string is too long for tsvector"), so the first line of the root
// cause follows the error's own first line.

const MAX_ERROR_CHARS = 500;

function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return (end === -1 ? text : text.slice(0, end)).trim();
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}

export function errorLine(error: unknown, maxChars = MAX_ERROR_CHARS): string {
  const own = firstLine(errorMessage(error));
  let root = error;
  for (let depth = 0; depth < 5 && root instanceof Error && root.cause !== undefined; depth++) root = root.cause;
  const why = root === error ? "" : clip(firstLine(errorMessage(root)), Math.floor(maxChars / 2));
  if (!why || own.includes(why)) return clip(own, maxChars);
  return `${clip(own, maxChars - why.length - 2)}: ${why}`;
}
