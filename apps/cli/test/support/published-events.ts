import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { loopEventSchema } from "@hatloop/core";

// The published event contract, docs/events.schema.json (generated from the zod union by
// `pnpm docs:events`). No JSON Schema validator is a dependency: an event is checked by
// round-tripping it through the union, and against the schema's variant for its type.

interface Variant {
  required: string[];
  properties: { type: { const: string }; data: { required?: string[] } };
}

const schema = JSON.parse(readFileSync(new URL("../../../../docs/events.schema.json", import.meta.url), "utf8")) as { oneOf: Variant[] };

/** Every line of `jsonl` (`--json` output) is an event of the union, unchanged by it, with what its schema variant requires. */
export function expectPublishedEvents(jsonl: string): void {
  const lines = jsonl.trim().split("\n");
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    const event = JSON.parse(line) as { type: string; data: Record<string, unknown> } & Record<string, unknown>;
    expect(loopEventSchema.parse(event), line).toEqual(event);
    const variant = schema.oneOf.find((v) => v.properties.type.const === event.type);
    expect(variant, `${event.type} is in docs/events.schema.json`).toBeDefined();
    expect(
      variant!.required.filter((k) => !(k in event)),
      line,
    ).toEqual([]);
    expect(
      (variant!.properties.data.required ?? []).filter((k) => !(k in event.data)),
      line,
    ).toEqual([]);
  }
}
