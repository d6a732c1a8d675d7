import type { Tool } from "@hatloop/core";
import type { SandboxPolicy } from "./sandbox/policy.js";
import { editFileTool } from "./tools/edit-file.js";
import { gitDiffTool, gitLogTool, gitStatusTool } from "./tools/git-tools.js";
import { listFilesTool } from "./tools/list-files.js";
import { readFileTool } from "./tools/read-file.js";
import { recallTool } from "./tools/recall.js";
import { runCommandTool } from "./tools/run-command.js";
import { searchTool } from "./tools/search.js";
import { taskCompleteTool } from "./tools/task-complete.js";
import { writeFileTool } from "./tools/write-file.js";

export const TOOL_NAMES = [
  "read_file",
  "write_file",
  "edit_file",
  "list_files",
  "search",
  "run_command",
  "git_status",
  "git_diff",
  "git_log",
  "task_complete",
  "recall",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

/** The tools that never change the worktree; any other (an MCP server's too) may have. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set<ToolName>([
  "read_file",
  "list_files",
  "search",
  "git_status",
  "git_diff",
  "git_log",
  "task_complete",
  "recall",
]);

export interface ToolsetOptions {
  /** Default run_command timeout (the model may ask for another). Default 120 000 ms. */
  commandTimeoutMs?: number;
  /** Cap on a tool result's text. Default 30 000 characters. */
  maxOutputChars?: number;
  /** The session's base commit, for git_diff's since_base. */
  baseCommit?: string;
  /** The environment of run_command's commands; default: childEnv() of this process. */
  env?: Record<string, string>;
  /** run_command in a PID namespace of its own where the machine allows it. */
  isolate?: boolean;
  /** run_command confined by this policy, in place of `isolate`. */
  sandbox?: SandboxPolicy;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

/** Every tool, in TOOL_NAMES order. Which hat may use which is the loop's decision. */
export function createToolset(options: ToolsetOptions = {}): Tool[] {
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const tools: Record<ToolName, Tool> = {
    read_file: readFileTool({ maxOutputChars }),
    write_file: writeFileTool(),
    edit_file: editFileTool(),
    list_files: listFilesTool(),
    search: searchTool(),
    run_command: runCommandTool({
      defaultTimeoutMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      maxOutputChars,
      ...(options.env ? { env: options.env } : {}),
      isolate: options.isolate === true,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    }),
    git_status: gitStatusTool(),
    git_diff: gitDiffTool({ maxOutputChars, ...(options.baseCommit ? { baseCommit: options.baseCommit } : {}) }),
    git_log: gitLogTool(),
    task_complete: taskCompleteTool(),
    recall: recallTool({ maxOutputChars }),
  };
  return TOOL_NAMES.map((name) => tools[name]);
}
