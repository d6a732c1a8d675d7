import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { confinePath } from "../confine.js";
import { defineTool, success } from "../define-tool.js";
import { looksBinary } from "../files/is-binary.js";
import { ToolError } from "../tool-error.js";

const DEFAULT_LINES = 2_000;
const MAX_LINE_CHARS = 2_000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

export function readFileTool(options: { maxOutputChars: number }) {
  return defineTool({
    name: "read_file",
    description:
      `Read a text file in the worktree. Lines are numbered (cat -n style). Reads at most ${DEFAULT_LINES} lines ` +
      "unless `limit` says otherwise; use `offset` (1-based line number) to continue. Binary files are refused.",
    input: z.object({
      path: z.string().min(1).describe("File path, relative to the worktree root"),
      offset: z.number().int().min(1).optional().describe("First line to read, 1-based (default 1)"),
      limit: z.number().int().min(1).optional().describe(`Maximum number of lines (default ${DEFAULT_LINES})`),
    }),
    async run(input, context) {
      const target = await confinePath(context.worktree, input.path);
      const info = await stat(target.absolute).catch(() => undefined);
      if (!info) throw new ToolError(`file "${input.path}" does not exist`);
      if (info.isDirectory()) throw new ToolError(`"${input.path}" is a directory; use list_files to see its contents`);
      if (info.size > MAX_FILE_BYTES) {
        throw new ToolError(`file "${input.path}" is too large to read (${info.size} bytes); use search or run_command with head/tail`);
      }
      const bytes = await readFile(target.absolute, { signal: context.signal });
      if (looksBinary(bytes)) throw new ToolError(`file "${input.path}" is binary (${bytes.length} bytes) and cannot be shown as text`);
      const text = bytes.toString("utf8");
      if (text.length === 0) return success(`(file "${target.relative}" is empty)`);

      const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
      const first = input.offset ?? 1;
      if (first > lines.length) {
        throw new ToolError(`offset ${first} is past the end of "${input.path}", which has ${lines.length} lines`);
      }
      return success(renderLines(lines, first, input.limit ?? DEFAULT_LINES, options.maxOutputChars));
    },
  });
}

function renderLines(lines: string[], first: number, limit: number, maxChars: number): string {
  const out: string[] = [];
  let size = 0;
  let last = first - 1;
  const width = String(Math.min(lines.length, first + limit - 1)).length;
  for (let n = first; n <= lines.length && n < first + limit; n++) {
    let line = lines[n - 1]!;
    if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)} [... line truncated, ${line.length} chars]`;
    const rendered = `${String(n).padStart(width)}\t${line}`;
    if (size + rendered.length + 1 > maxChars && out.length > 0) break;
    out.push(rendered);
    size += rendered.length + 1;
    last = n;
  }
  if (last < lines.length) {
    out.push(`[showing lines ${first}-${last} of ${lines.length}; read more with offset=${last + 1}]`);
  }
  return out.join("\n");
}
