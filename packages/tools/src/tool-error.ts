/**
 * A failure the model can act on. Tools throw it internally; `defineTool` turns it into an
 * `{ isError: true }` result, so nothing escapes `Tool.run` as an exception.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
}

/** Node's errno code of a filesystem error, if any. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = error.code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}
