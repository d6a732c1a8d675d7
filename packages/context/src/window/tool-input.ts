// Short, deterministic descriptions of tool calls, shared by the removal stubs and the mechanical
// summary: the one argument that says what a call was about (a path, a command, a pattern).

/** Input keys that identify what a call touched, most telling first. */
const KEY_ARGUMENTS = [
  "path",
  "file_path",
  "filePath",
  "file",
  "command",
  "cmd",
  "pattern",
  "query",
  "url",
  "glob",
  "paths",
  "id",
] as const;

interface KeyArgument {
  key: string;
  value: string;
}

function keyArgument(input: unknown): KeyArgument | null {
  if (!isRecord(input)) return null;
  for (const key of KEY_ARGUMENTS) {
    const value = input[key];
    if (typeof value === "string" && value.trim() !== "") return { key, value: value.trim() };
    if (typeof value === "number") return { key, value: String(value) };
    if (Array.isArray(value) && value.every((v) => typeof v === "string") && value.length > 0) {
      return { key, value: value.join(", ") };
    }
  }
  return null;
}

/** "read_file path=src/a.ts" — the name and the key argument, clipped; falls back to the JSON. */
export function describeToolCall(name: string, input: unknown, maxChars = 100): string {
  const key = keyArgument(input);
  if (key) return `${name} ${key.key}=${clip(oneLine(key.value), maxChars)}`;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for undefined, a function or a symbol, though lib.d.ts says string
  const json = JSON.stringify(input ?? {}) ?? "{}";
  return json === "{}" ? name : `${name} ${clip(json, maxChars)}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts to maxChars, marking the cut with an ellipsis. */
export function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}
