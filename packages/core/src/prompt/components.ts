import { readFileSync } from "node:fs";
import { join } from "node:path";

export const COMPONENT_NAMES = ["system", "memories", "hat", "task", "continuation", "hat-change"] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];
export type PromptComponents = Record<ComponentName, string>;

/** Reads prompts/components/*.md once per session. */
export function loadPromptComponents(dir: string): PromptComponents {
  const entries = COMPONENT_NAMES.map((name) => [name, readFileSync(join(dir, `${name}.md`), "utf8").trim()] as const);
  return Object.fromEntries(entries) as PromptComponents;
}
