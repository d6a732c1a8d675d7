import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { confinePath } from "../confine.js";
import { defineTool, success } from "../define-tool.js";
import { ToolError } from "../tool-error.js";

export function writeFileTool() {
  return defineTool({
    name: "write_file",
    description:
      "Create a file or replace its whole content. Parent directories are created. " +
      "To change part of an existing file, prefer edit_file.",
    input: z.object({
      path: z.string().min(1).describe("File path, relative to the worktree root"),
      content: z.string().describe("The complete new content of the file"),
    }),
    async run(input, context) {
      const target = await confinePath(context.worktree, input.path, { write: true });
      const existing = await stat(target.absolute).catch(() => undefined);
      if (existing?.isDirectory()) throw new ToolError(`"${input.path}" is a directory, not a file`);
      await mkdir(path.dirname(target.absolute), { recursive: true });
      await writeFile(target.absolute, input.content, { signal: context.signal });
      const lines = input.content.length === 0 ? 0 : input.content.split("\n").length;
      const verb = existing ? "Overwrote" : "Created";
      return success(`${verb} ${target.relative} (${lines} lines, ${Buffer.byteLength(input.content)} bytes)`, {
        changedFiles: [target.relative],
      });
    },
  });
}
