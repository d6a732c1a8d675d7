import { z } from "zod";
import { EVENT_VERSION, loopEventSchema } from "./events.js";

// The event union as JSON Schema, for other tools: docs/events.schema.json (pnpm docs:events) and
// the console's API (/api/v1/events.schema.json) are both this.

/**
 * The union as hatloop's readers apply it (zod's "input" side): an event without `v` is version 1,
 * and fields the schema does not name are allowed and ignored (hooks add `hook` and `text`; a later
 * version may add an optional field). One variant per event type, told apart by `type`.
 */
export function eventsJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(loopEventSchema, { io: "input" });
  return {
    $schema,
    title: "hatloop loop event",
    description: `One event of a hatloop session, event schema version ${EVENT_VERSION} (field v). Generated from packages/core/src/events.ts by \`pnpm docs:events\`; see docs/architecture.md, "The event flow".`,
    ...schema,
  };
}
