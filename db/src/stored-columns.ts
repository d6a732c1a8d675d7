import { customType } from "drizzle-orm/pg-core";
import { escapeJson, escapeText, unescapeJson, unescapeText } from "./stored-value.js";

// The column types every table uses for text and JSON: one place where values cross into and out of
// Postgres, escaped so that any string is storable (stored-value.ts). Drizzle applies them to inserts,
// updates, returned rows, selects and the parameters compared with these columns (eq, like, ...).

export const storedText = customType<{ data: string; driverData: string }>({
  dataType: () => "text",
  toDriver: escapeText,
  fromDriver: unescapeText,
});

// Both drivers hand jsonb back parsed, so there is nothing to JSON.parse on the way out.
export const storedJson = customType<{ data: unknown; driverData: string }>({
  dataType: () => "jsonb",
  toDriver: (value) => JSON.stringify(escapeJson(value)),
  fromDriver: (value) => unescapeJson(value),
});
