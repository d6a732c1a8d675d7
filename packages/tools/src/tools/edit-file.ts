import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import { confinePath } from "../confine.js";
import { defineTool, success } from "../define-tool.js";
import { looksBinary } from "../files/is-binary.js";
import { ToolError, errnoCode } from "../tool-error.js";

export function editFileTool() {
  return defineTool({
    name: "edit_file",
    description:
      "Replace an exact string in a file. `old_string` must match the file exactly (whitespace included) and " +
      "occur once, unless `replace_all` is true. Include enough surrounding lines to make it unique.",
    input: z.object({
      path: z.string().min(1).describe("File path, relative to the worktree root"),
      old_string: z.string().min(1).describe("The exact text to replace"),
      new_string: z.string().describe("The replacement text"),
      replace_all: z.boolean().optional().describe("Replace every occurrence (default false)"),
    }),
    async run(input, context) {
      if (input.old_string === input.new_string) throw new ToolError("old_string and new_string are identical; nothing to change");
      const target = await confinePath(context.worktree, input.path, { write: true });
      const bytes = await readFile(target.absolute, { signal: context.signal }).catch((error: unknown) => {
        if (errnoCode(error) === "ENOENT") throw new ToolError(`file "${input.path}" does not exist; use write_file to create it`);
        if (errnoCode(error) === "EISDIR") throw new ToolError(`"${input.path}" is a directory, not a file`);
        throw error;
      });
      if (looksBinary(bytes)) throw new ToolError(`file "${input.path}" is binary and cannot be edited as text`);
      const text = bytes.toString("utf8");

      let oldString = input.old_string;
      let newString = input.new_string;
      // Models write "\n"; a file with Windows line endings still deserves a match.
      if (!text.includes(oldString) && text.includes("\r\n") && oldString.includes("\n")) {
        oldString = toCrlf(oldString);
        newString = toCrlf(newString);
      }
      const positions = occurrences(text, oldString);
      if (positions.length === 0) {
        throw new ToolError(
          `old_string was not found in "${input.path}"; read the file again and copy the exact text, including whitespace and indentation`,
        );
      }
      if (positions.length > 1 && !input.replace_all) {
        const lines = positions.slice(0, 10).map((at) => lineOf(text, at));
        throw new ToolError(
          `old_string occurs ${positions.length} times in "${input.path}" (lines ${lines.join(", ")}); ` +
            "add surrounding context to make it unique, or set replace_all to true",
        );
      }
      const updated = input.replace_all ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
      await writeFile(target.absolute, updated, { signal: context.signal });
      const where = positions.length === 1 ? ` at line ${lineOf(text, positions[0]!)}` : "";
      const count = positions.length === 1 ? "1 occurrence" : `${positions.length} occurrences`;
      return success(`Replaced ${count} in ${target.relative}${where}`, { changedFiles: [target.relative] });
    },
  });
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}
