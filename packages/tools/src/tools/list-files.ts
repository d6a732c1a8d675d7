import { stat } from "node:fs/promises";
import { z } from "zod";
import { confinePath } from "../confine.js";
import { defineTool, success } from "../define-tool.js";
import { listWorktreeFiles } from "../files/list-worktree-files.js";
import { createGlobMatcher } from "../text/glob.js";
import { ToolError } from "../tool-error.js";

const DEFAULT_MAX = 500;

export function listFilesTool() {
  return defineTool({
    name: "list_files",
    description:
      "List files in the worktree (or under `path`), respecting .gitignore; .git and node_modules are never listed. " +
      "`pattern` is a glob: `*.ts` matches file names at any depth, `src/**/*.test.ts` matches whole paths.",
    input: z.object({
      path: z.string().optional().describe("Directory to list, relative to the worktree root (default: the root)"),
      pattern: z.string().min(1).optional().describe("Glob filter, e.g. `**/*.ts` or `*.md`"),
      max: z.number().int().min(1).max(5_000).optional().describe(`Maximum number of paths (default ${DEFAULT_MAX})`),
    }),
    async run(input, context) {
      const dir = await confinePath(context.worktree, input.path ?? "");
      const info = await stat(dir.absolute).catch(() => undefined);
      if (!info) throw new ToolError(`directory "${input.path}" does not exist`);
      if (!info.isDirectory()) throw new ToolError(`"${input.path}" is a file, not a directory; use read_file`);

      const root = await confinePath(context.worktree, "");
      let files = await listWorktreeFiles(root.absolute, dir.absolute, context.signal);
      if (input.pattern) {
        // The pattern is relative to the listed directory, as a user would expect.
        const matches = createGlobMatcher(input.pattern);
        const cut = dir.relative === "" ? 0 : dir.relative.length + 1;
        files = files.filter((f) => matches(f.slice(cut)));
      }
      const where = dir.relative === "" ? "the worktree" : `"${dir.relative}"`;
      if (files.length === 0) {
        return success(input.pattern ? `No files in ${where} match "${input.pattern}".` : `No files in ${where}.`);
      }
      const max = input.max ?? DEFAULT_MAX;
      const shown = files.slice(0, max);
      const more = files.length - shown.length;
      const footer = more > 0 ? `\n[... and ${more} more; narrow the listing with path or pattern]` : "";
      return success(shown.join("\n") + footer);
    },
  });
}
