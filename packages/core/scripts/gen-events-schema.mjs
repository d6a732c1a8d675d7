// Writes docs/events.schema.json, the event union as JSON Schema, from the zod union
// (packages/core/src/events.ts), so other tools (the web console, what hooks and `--json` feed) read
// the contract hatloop itself checks events against, and it cannot drift from it.
//
//   pnpm docs:events        (builds @hatloop/core, then runs this with the built schema)
//
// packages/core/test/events-schema.test.ts fails when the file differs from what this writes.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";

/** docs/events.schema.json, from this file's place in the repository. */
export const EVENTS_SCHEMA = fileURLToPath(new URL("../../../docs/events.schema.json", import.meta.url));

/**
 * The union as hatloop's readers apply it (zod's "input" side): an event without `v` is version 1,
 * and fields the schema does not name are allowed and ignored (hooks add `hook` and `text`; a later
 * version may add an optional field). One variant per event type, told apart by `type`.
 */
function eventsJsonSchema(loopEventSchema, version) {
  const { $schema, ...schema } = z.toJSONSchema(loopEventSchema, { io: "input" });
  return {
    $schema,
    title: "hatloop loop event",
    description: `One event of a hatloop session, event schema version ${version} (field v). Generated from packages/core/src/events.ts by \`pnpm docs:events\`; see docs/architecture.md, "The event flow".`,
    ...schema,
  };
}

/** The file's text: the schema, two-space indented, with a final newline. */
export function eventsSchemaText(loopEventSchema, version) {
  return `${JSON.stringify(eventsJsonSchema(loopEventSchema, version), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loopEventSchema, EVENT_VERSION } = await import("../dist/events.js");
  const before = readFileSync(EVENTS_SCHEMA, { encoding: "utf8", flag: "a+" });
  const after = eventsSchemaText(loopEventSchema, EVENT_VERSION);
  if (after !== before) writeFileSync(EVENTS_SCHEMA, after);
  console.log(after === before ? "docs/events.schema.json is up to date" : "docs/events.schema.json written");
}
