import { redactSecrets } from "@hatloop/context";
import { neutralizeControls, redactValue, terminalSafeJson } from "@hatloop/core";

// Everything the CLI prints goes through here. Content is redacted again (rows stored before the
// store redacted them, errors and notices built from raw text) and made harmless to a terminal:
// no escape sequence from the model, a tool or the database reaches it (OSC 52, screen clears,
// titles, hyperlinks, 8-bit C1). JSON is redacted value by value and escaped, never altered.

type Out = Pick<NodeJS.WriteStream, "write">;

/** Text fit for a terminal: secrets redacted, control characters made visible (tabs and newlines kept). */
function safeText(text: string): string {
  return neutralizeControls(redactSecrets(text));
}

/** Prints `text` and a newline. */
export function printText(text: string, out: Out = process.stdout): void {
  out.write(`${safeText(text)}\n`);
}

/** One line on stderr, `hatloop: ` first: errors and notices. */
export function printError(message: string): void {
  printText(`hatloop: ${message}`, process.stderr);
}

/** JSON text of `value` with secrets redacted in every string and no raw C1 control character. */
export function jsonText(value: unknown, indent?: number): string {
  return terminalSafeJson(JSON.stringify(redactValue(value), null, indent));
}

/** JSON text rendered elsewhere from an already redacted value: escaped, not altered. */
export function printJsonText(json: string): void {
  process.stdout.write(`${terminalSafeJson(json.replace(/\n$/, ""))}\n`);
}

/** Pretty JSON, for commands' --json. */
export function printJson(value: unknown): void {
  process.stdout.write(`${jsonText(value, 2)}\n`);
}
