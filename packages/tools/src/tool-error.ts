/** A failure the model can act on: defined with defineTool, in @hatloop/core. */
export { ToolError } from "@hatloop/core";

/** Node's errno code of a filesystem error, if any. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = error.code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}
