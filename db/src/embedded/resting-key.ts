import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { migrationsFolder } from "../migrate.js";

/**
 * The shape of the sessions a holder leaves at rest (toRecord in stores/sessions.ts): raised when a
 * field is added, renamed or changes type, so that no hatloop reads another's sessions as its own.
 */
export const SESSION_LAYOUT = 1;

/** What a reader of the file must share with its writer: the layout and every migration (not only the newest's date). */
export function restingKey(): string {
  const journal = createHash("sha256")
    .update(readFileSync(`${migrationsFolder}/meta/_journal.json`))
    .digest("hex");
  return `sessions ${SESSION_LAYOUT} ${journal.slice(0, 16)}`;
}
