import { redactingSink, type RedactingSink } from "@hatloop/core";
import { printText } from "../output/print.js";
import { jsonSink } from "./json.js";
import { plainSink } from "./plain.js";

/**
 * A run's events printed on stdout, as plain lines or JSON lines, live or replayed from the
 * database: redacted first (model text as one stream, see redactingSink), then printed safely.
 * Call end() when no further event will come.
 */
export function printedEvents(json: boolean): RedactingSink {
  return redactingSink(json ? jsonSink((line) => process.stdout.write(`${line}\n`)) : plainSink((line) => printText(line)));
}
