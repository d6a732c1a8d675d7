/** Replaces {{name}} placeholders; a placeholder without a value is an error, never left in a prompt. */
export function renderTemplate(template: string, values: Record<string, string | number>, source = "template"): string {
  return template.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${source}: no value for {{${name}}}`);
    return String(value);
  });
}
