import { errorMessage } from "@hatloop/context";
import { z } from "zod";
import type { ToolSpec } from "./model.js";
import type { Tool, ToolContext, ToolResult } from "./tools.js";

// One wrapper gives every tool the same contract: its input as a zod schema (the JSON Schema the model
// sees is generated from it, and the input is validated against it), an abort check, and errors
// returned as `{ isError: true, content }` instead of thrown. The agent's tools (@hatloop/tools) and
// the loop's own (loop/loop-tools.ts) are all defined with it.

/**
 * A failure the model can act on. Tools throw it internally; `defineTool` turns it into an
 * `{ isError: true }` result, so nothing escapes `Tool.run` as an exception.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
}

export interface ToolDefinition<S extends z.ZodObject> {
  name: string;
  description: string;
  input: S;
  run(input: z.output<S>, context: ToolContext): Promise<ToolResult>;
}

export function defineTool<S extends z.ZodObject>(definition: ToolDefinition<S>): Tool {
  const spec: ToolSpec = {
    name: definition.name,
    description: definition.description,
    inputSchema: toInputSchema(definition.input),
  };
  return {
    spec,
    async run(rawInput, context) {
      if (context.signal.aborted) return failure(`${definition.name} was not run: the iteration was aborted`);
      const parsed = definition.input.safeParse(rawInput);
      if (!parsed.success) return failure(`invalid input for ${definition.name}: ${describeIssues(parsed.error)}`);
      try {
        return await definition.run(parsed.data, context);
      } catch (error) {
        if (error instanceof ToolError) return failure(error.message);
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
        if (context.signal.aborted) return failure(`${definition.name} was aborted`);
        return failure(`${definition.name} failed: ${errorMessage(error)}`);
      }
    },
  };
}

export function failure(content: string): ToolResult {
  return { isError: true, content };
}

export function success(content: string, meta?: ToolResult["meta"]): ToolResult {
  return meta ? { isError: false, content, meta } : { isError: false, content };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ");
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** JSON Schema for the model, without zod's noise (the $schema URL, safe-integer bounds). */
export function toInputSchema(schema: z.ZodObject): ToolSpec["inputSchema"] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = json;
  return { ...(dropSafeBounds(rest) as Record<string, unknown>), type: "object" };
}

function dropSafeBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropSafeBounds);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if ((key === "maximum" || key === "minimum") && typeof v === "number" && SAFE_INTEGER_BOUNDS.has(v)) continue;
    out[key] = dropSafeBounds(v);
  }
  return out;
}
