import { z } from "zod";

// A hat is a role the agent wears for a while: its instructions, the events that wake it, the events
// it may publish, and the tools it may use. Hats are files (prompts/hats/*.md, overridable per repo).

export const hatSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*$/, "expected a lowercase name such as creator"),
    description: z.string().min(1),
    triggers: z.array(z.string().min(1)).default([]),
    publishes: z.array(z.string().min(1)).default([]),
    /** Tool names; "*" means every tool, a trailing "*" a prefix ("mcp__github__*"), "!" in front removes. */
    tools: z.array(z.string().min(1)).default(["*"]),
    /** When several hats trigger on one event, the lowest priority wins. */
    priority: z.number().int().default(100),
    instructions: z.string().min(1),
  })
  .strict();

export type Hat = z.output<typeof hatSchema>;

/** The tools a hat may use, out of all available tool names: its rules in order, each adding or removing. */
export function hatToolNames(hat: Hat, available: readonly string[]): Set<string> {
  const allowed = new Set<string>();
  for (const rule of hat.tools) {
    const remove = rule.startsWith("!");
    const pattern = remove ? rule.slice(1) : rule;
    for (const name of available.filter((t) => matchesRule(t, pattern))) {
      if (remove) allowed.delete(name);
      else allowed.add(name);
    }
  }
  return allowed;
}

function matchesRule(name: string, pattern: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}
