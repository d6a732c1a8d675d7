import { lstat, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { errorMessage } from "@hatloop/context";
import { z } from "zod";
import { confinePath } from "../confine.js";
import { defineTool, success } from "../define-tool.js";
import { looksBinary } from "../files/is-binary.js";
import { listWorktreeFiles } from "../files/list-worktree-files.js";
import { createGlobMatcher } from "../text/glob.js";
import { ToolError } from "../tool-error.js";

// Search runs in-process over the same file list as list_files, so it honours .gitignore and
// has JavaScript regex semantics everywhere, with or without git.

const DEFAULT_MAX_RESULTS = 100;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_SHOWN_LINE = 240;
/** Lines longer than this (minified bundles) are not searched: slow and useless to show. */
const MAX_SEARCHED_LINE = 10_000;
const READ_BATCH = 32;

export function searchTool() {
  return defineTool({
    name: "search",
    description:
      "Search file contents in the worktree with a regular expression (JavaScript syntax), respecting .gitignore. " +
      "Returns `path:line: text` for each matching line.",
    input: z.object({
      pattern: z.string().min(1).describe("Regular expression, e.g. `function\\s+parse` or `TODO`"),
      path: z.string().optional().describe("Directory or file to search, relative to the worktree root (default: the root)"),
      glob: z.string().min(1).optional().describe("Only search files matching this glob, e.g. `*.ts` or `src/**/*.py`"),
      case_insensitive: z.boolean().optional().describe("Ignore case (default false)"),
      max_results: z.number().int().min(1).max(1_000).optional().describe(`Maximum matching lines (default ${DEFAULT_MAX_RESULTS})`),
    }),
    async run(input, context) {
      let regex: RegExp;
      try {
        regex = new RegExp(input.pattern, input.case_insensitive ? "i" : "");
      } catch (error) {
        throw new ToolError(`invalid regular expression: ${errorMessage(error)}`);
      }
      const root = await confinePath(context.worktree, "");
      const scope = await confinePath(context.worktree, input.path ?? "");
      const info = await stat(scope.absolute).catch(() => undefined);
      if (!info) throw new ToolError(`path "${input.path}" does not exist`);

      let files = info.isDirectory() ? await listWorktreeFiles(root.absolute, scope.absolute, context.signal) : [scope.relative];
      if (input.glob) files = files.filter(createGlobMatcher(input.glob));

      const max = input.max_results ?? DEFAULT_MAX_RESULTS;
      const hits: string[] = [];
      let total = 0;
      for (let i = 0; i < files.length; i += READ_BATCH) {
        context.signal.throwIfAborted();
        const batch = files.slice(i, i + READ_BATCH);
        const texts = await Promise.all(batch.map((f) => readSearchable(path.join(root.absolute, f))));
        batch.forEach((file, k) => {
          const lines = texts[k]?.split(/\r?\n/) ?? [];
          lines.forEach((line, n) => {
            if (line.length > MAX_SEARCHED_LINE || !regex.test(line)) return;
            total++;
            if (hits.length < max) hits.push(`${file}:${n + 1}: ${clip(line.trim())}`);
          });
        });
      }
      if (total === 0) return success(`No matches for /${input.pattern}/ in ${files.length} files.`);
      const more = total - hits.length;
      const footer = more > 0 ? `\n[... ${more} more matches not shown; narrow with path or glob, or raise max_results]` : "";
      return success(hits.join("\n") + footer);
    },
  });
}

/** Symlinks are skipped: a link's target may lie outside the worktree. */
async function readSearchable(file: string): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_FILE_BYTES) return undefined;
  const bytes = await readFile(file).catch(() => undefined);
  if (!bytes || looksBinary(bytes)) return undefined;
  return bytes.toString("utf8");
}

function clip(line: string): string {
  return line.length > MAX_SHOWN_LINE ? `${line.slice(0, MAX_SHOWN_LINE)} [...]` : line;
}
