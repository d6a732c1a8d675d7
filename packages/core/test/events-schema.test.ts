import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { LOOP_EVENT_TYPES, loopEventSchema, type LoopEvent } from "../src/events.js";
import { eventsJsonSchema } from "../src/events-schema.js";
import { runFixture, type Turn } from "../src/test-support/loop-fixture.js";
import { EVENTS_SCHEMA, eventsSchemaText, type EventsJsonSchema } from "../scripts/gen-events-schema.mjs";

// docs/events.schema.json is the event union as JSON Schema, generated from packages/core/src/events.ts.
// No JSON Schema validator is a dependency, so events are checked by round-tripping them through the
// zod union, and the schema by its shape: every event type, with the fields zod requires.

const schema = JSON.parse(readFileSync(EVENTS_SCHEMA, "utf8")) as EventsJsonSchema;
const variantOf = (type: string) => schema.oneOf.find((v) => v.properties.type.const === type);

/** The fields of an event's data that zod requires (those that do not accept undefined). */
function requiredByZod(type: string): string[] {
  const option = loopEventSchema.options.find((o) => (o.shape.type as z.ZodLiteral).value === type)!;
  const data = option.shape.data as z.ZodObject;
  return Object.entries(data.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([key]) => key);
}

describe("docs/events.schema.json", () => {
  it("is what `pnpm docs:events` writes from the union (run it after changing packages/core/src/events.ts)", () => {
    expect(readFileSync(EVENTS_SCHEMA, "utf8")).toBe(eventsSchemaText(eventsJsonSchema));
  });

  it("has one variant per event type, with the envelope and the data fields the union requires", () => {
    expect(schema.oneOf.map((v) => v.properties.type.const)).toEqual(LOOP_EVENT_TYPES);
    for (const type of LOOP_EVENT_TYPES) {
      const variant = variantOf(type)!;
      // v may be absent: an event written before versioning is version 1.
      expect(variant.required.sort(), type).toEqual(["data", "iteration", "sessionId", "ts", "type"]);
      expect((variant.properties.data.required ?? []).sort(), type).toEqual(requiredByZod(type).sort());
    }
    expect(variantOf("session.start")?.properties.data.required).not.toContain("runner");
  });
});

/** What an event lacks of its variant in the schema: unknown type, or required fields missing. */
function missingFromSchema(event: Record<string, unknown>): string[] {
  const variant = variantOf(String(event.type));
  if (!variant) return [`unknown type ${String(event.type)}`];
  const data = (event.data ?? {}) as Record<string, unknown>;
  return [
    ...variant.required.filter((k) => !(k in event)),
    ...(variant.properties.data.required ?? []).filter((k) => !(k in data)).map((k) => `data.${k}`),
  ];
}

const session: Turn[] = [
  {
    text: "Planning.\nCHECKLIST_ADD:1:reproduce\nSCRATCHPAD:## Plan\n1. [ ] reproduce",
    tools: [{ name: "read_file", input: { path: "a.ts" } }],
  },
  { text: "EVENT:plan.complete" },
  { tools: [{ name: "write_file", input: { path: "a.ts", content: "x" } }] },
  { text: "CHECKLIST_DONE:1\nMEMORY:learning:the clock is injected\nEVENT:implementation.done" },
  { text: "Looks right.\nEVENT:review.approved" },
  { tools: [{ name: "task_complete", input: { summary: "fixed" } }] },
];

describe("a session's events", () => {
  it("survive JSON and the zod union unchanged, and each has what its schema variant requires", async () => {
    const run = await runFixture({ turns: session });
    expect(run.outcome.status).toBe("completed");
    const types = new Set(run.events.map((e) => e.type));
    expect(types.size).toBeGreaterThan(15);
    expect(missingFromSchema({ type: "iteration.start", sessionId: "s", iteration: 1, ts: 0, data: {} })).toEqual(["data.hat"]);
    expect(missingFromSchema({ type: "iteration.begin" })).toEqual(["unknown type iteration.begin"]);
    for (const event of run.events) {
      const json = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
      expect(loopEventSchema.parse(json) as LoopEvent).toEqual(event);
      expect(missingFromSchema(json), event.type).toEqual([]);
    }
  });
});
