// Writes docs/events.schema.json, the event union as JSON Schema (packages/core/src/events-schema.ts), so other tools (the web console, what hooks and `--json` feed) read
// the contract hatloop itself checks events against, and it cannot drift from it.
//
//   pnpm docs:events        (builds @hatloop/core, then runs this with the built schema)
//
// packages/core/test/events-schema.test.ts fails when the file differs from what this writes.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/** docs/events.schema.json, from this file's place in the repository. */
export const EVENTS_SCHEMA = fileURLToPath(new URL("../../../docs/events.schema.json", import.meta.url));

/** The file's text: the schema, two-space indented, with a final newline. */
export function eventsSchemaText(eventsJsonSchema) {
  return `${JSON.stringify(eventsJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { eventsJsonSchema } = await import("../dist/events-schema.js");
  const before = readFileSync(EVENTS_SCHEMA, { encoding: "utf8", flag: "a+" });
  const after = eventsSchemaText(eventsJsonSchema);
  if (after !== before) writeFileSync(EVENTS_SCHEMA, after);
  console.log(after === before ? "docs/events.schema.json is up to date" : "docs/events.schema.json written");
}
