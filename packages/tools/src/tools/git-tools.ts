import { z } from "zod";
import { confinePath } from "../confine.js";
import { defineTool, success } from "../define-tool.js";
import { gitAt, gitErrorLine } from "../git/client.js";
import { capHeadTail } from "../text/cap-output.js";
import { ToolError } from "../tool-error.js";

export interface GitToolOptions {
  maxOutputChars: number;
  /** The session's base commit, for git_diff's since_base. */
  baseCommit?: string;
}

async function gitCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ToolError(`${what} failed: ${gitErrorLine(error)}`);
  }
}

export function gitStatusTool() {
  return defineTool({
    name: "git_status",
    description: "Show the worktree's branch and changed, staged and untracked files (git status --short --branch).",
    input: z.object({}),
    async run(_input, context) {
      const git = gitAt(context.worktree, { signal: context.signal });
      const out = await gitCall("git status", () => git.raw(["status", "--short", "--branch", "--untracked-files=all"]));
      const lines = out.trimEnd().split("\n");
      return success(lines.length <= 1 ? `${out.trimEnd()}\n(working tree clean)` : out.trimEnd());
    },
  });
}

export function gitDiffTool(options: GitToolOptions) {
  return defineTool({
    name: "git_diff",
    description:
      "Show a unified diff of the worktree: unstaged changes by default, staged changes with `staged`, or everything " +
      "since the task started with `since_base`. `path` limits it to one file or directory.",
    input: z.object({
      staged: z.boolean().optional().describe("Diff the index (staged changes) instead of the working tree"),
      path: z.string().optional().describe("Limit the diff to this file or directory"),
      since_base: z.boolean().optional().describe("Diff against the commit the task started from"),
    }),
    async run(input, context) {
      const args = ["diff", "--no-color", "--no-ext-diff"];
      if (input.staged) args.push("--cached");
      if (input.since_base) {
        if (!options.baseCommit) throw new ToolError("since_base is unavailable: this session has no recorded base commit");
        args.push(options.baseCommit);
      }
      const scope = input.path ? [(await confinePath(context.worktree, input.path)).relative || "."] : [];
      const git = gitAt(context.worktree, { signal: context.signal });
      const diff = await gitCall("git diff", () => git.raw([...args, "--", ...scope]));
      let text = diff.trim().length > 0 ? capHeadTail(diff.trimEnd(), options.maxOutputChars) : "No differences.";
      if (input.since_base || !input.staged) {
        const untracked = await gitCall("git ls-files", () => git.raw(["ls-files", "--others", "--exclude-standard", "--", ...scope]));
        const names = untracked.trim().split("\n").filter(Boolean);
        if (names.length > 0)
          text += `\n\nUntracked files (not shown in the diff): ${names.slice(0, 50).join(", ")}${names.length > 50 ? ", ..." : ""}`;
      }
      return success(text);
    },
  });
}

export function gitLogTool() {
  return defineTool({
    name: "git_log",
    description: "Show recent commits on the worktree's branch: short sha, date, author and subject.",
    input: z.object({
      max: z.number().int().min(1).max(200).optional().describe("Number of commits (default 20)"),
    }),
    async run(input, context) {
      const git = gitAt(context.worktree, { signal: context.signal });
      const hasHead = await git.raw(["rev-parse", "--verify", "--quiet", "HEAD"]).then(
        (out) => out.trim().length > 0,
        () => false,
      );
      if (!hasHead) return success("No commits yet.");
      const out = await gitCall("git log", () => git.raw(["log", `-n${input.max ?? 20}`, "--date=short", "--format=%h %ad %an: %s"]));
      return success(out.trimEnd());
    },
  });
}
