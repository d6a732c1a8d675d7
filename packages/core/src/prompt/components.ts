const COMPONENT_NAMES = ["system", "memories", "hat", "task", "continuation", "hat-change"] as const;
type ComponentName = (typeof COMPONENT_NAMES)[number];
export type PromptComponents = Record<ComponentName, string>;

/** The prompt components, each read by `read` from its file name (prompts/components/<name>.md). */
export function promptComponentsFrom(read: (file: string) => string): PromptComponents {
  const entries = COMPONENT_NAMES.map((name) => [name, read(`${name}.md`).trim()] as const);
  return Object.fromEntries(entries) as PromptComponents;
}
