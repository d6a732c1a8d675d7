import type { Handoff } from "./types.js";
import { HandoffFormatError, validateHandoff } from "./validate.js";

// JSON: the shape served by `GET /api/sessions/:id/handoff` and stored in the checkpoint row.

/** Pretty JSON with the Handoff keys in their fixed order (extra keys dropped). */
export function renderHandoffJson(handoff: Handoff): string {
  return `${JSON.stringify(validateHandoff(handoff), null, 2)}\n`;
}

/** Parses and validates; throws HandoffFormatError for bad JSON or a wrong shape. */
export function parseHandoffJson(text: string): Handoff {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HandoffFormatError("$", `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return validateHandoff(value);
}
