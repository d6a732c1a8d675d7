import { z } from "zod";
import { defineTool, failure } from "../define-tool.js";
import { confinePath } from "../confine.js";
import { destructiveReason } from "../shell/destructive.js";
import type { SandboxPolicy } from "../sandbox/policy.js";
import { runShell, type ShellRun } from "../shell/run-shell.js";

export interface RunCommandOptions {
  defaultTimeoutMs: number;
  maxOutputChars: number;
  /** The commands' environment (default: childEnv() of this process). */
  env?: Record<string, string>;
  /** Each command in a PID namespace of its own where the machine allows it. */
  isolate?: boolean;
  /** Each command confined by this policy, in place of `isolate`. */
  sandbox?: SandboxPolicy;
}

const MAX_TIMEOUT_SECONDS = 3_600;

export function runCommandTool(options: RunCommandOptions) {
  const defaultSeconds = Math.round(options.defaultTimeoutMs / 1000);
  return defineTool({
    name: "run_command",
    description:
      "Run a shell command with bash in the worktree root and return its combined stdout and stderr. " +
      `Non-interactive (no stdin); times out after ${defaultSeconds}s unless timeout_seconds says otherwise, killing ` +
      "every process it started. Background processes are killed when the command ends. Long output keeps its start and end.",
    input: z.object({
      command: z.string().min(1).describe("The bash command line, e.g. `npm test -- --run src/parser.test.ts`"),
      timeout_seconds: z
        .number()
        .positive()
        .max(MAX_TIMEOUT_SECONDS)
        .optional()
        .describe(`Timeout in seconds (default ${defaultSeconds}, at most ${MAX_TIMEOUT_SECONDS})`),
    }),
    async run(input, context) {
      const reason = destructiveReason(input.command);
      if (reason) return failure(`command refused because ${reason}; run only commands that stay inside the worktree`);
      const cwd = (await confinePath(context.worktree, "")).absolute;
      const timeoutMs = input.timeout_seconds !== undefined ? input.timeout_seconds * 1000 : options.defaultTimeoutMs;
      const headChars = Math.floor(options.maxOutputChars * 0.3);
      const run = await runShell({
        command: input.command,
        cwd,
        timeoutMs,
        signal: context.signal,
        ...(options.env ? { env: options.env } : {}),
        isolate: options.isolate === true,
        ...(options.sandbox ? { sandbox: options.sandbox } : {}),
        headChars,
        tailChars: options.maxOutputChars - headChars,
      });
      const failed = run.timedOut || run.aborted || run.exitCode !== 0;
      const body = run.output.length > 0 ? run.output.replace(/\n?$/, "\n") : "(no output)\n";
      return {
        isError: failed,
        content: body + statusLine(run, timeoutMs),
        meta: { exitCode: run.exitCode, timedOut: run.timedOut, aborted: run.aborted, durationMs: run.durationMs },
      };
    },
  });
}

function statusLine(run: ShellRun, timeoutMs: number): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
  if (run.timedOut) return `[timed out after ${seconds(timeoutMs)}; the command and every process it started were killed]`;
  if (run.aborted) return "[aborted; the command and every process it started were killed]";
  if (run.exitCode === null) return `[killed by ${run.signalName ?? "a signal"} after ${seconds(run.durationMs)}]`;
  return `[exit code ${run.exitCode}, ${seconds(run.durationMs)}]`;
}
