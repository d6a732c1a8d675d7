export declare const EVENTS_SCHEMA: string;
export declare function eventsSchemaText(eventsJsonSchema: () => Record<string, unknown>): string;

/** The parts of the generated schema its tests read: one variant per event type. */
export interface EventsJsonSchema {
  $schema: string;
  title: string;
  oneOf: Array<{
    properties: { type: { const: string }; data: { properties?: Record<string, unknown>; required?: string[] } } & Record<string, unknown>;
    required: string[];
  }>;
}
