import { stripVTControlCharacters } from "node:util";
import { execa } from "execa";
import { HeadTailBuffer } from "../text/cap-output.js";
import { childEnv } from "./child-env.js";
import { blockedNote, sandboxLaunch, type SandboxLaunch } from "../sandbox/runtime.js";
import type { SandboxPolicy } from "../sandbox/policy.js";
import { isolated } from "./isolation.js";
import { killTree, trackGroup } from "./kill-tree.js";

export interface ShellOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
  /** In a PID namespace of its own where the machine allows it (isolation.ts): it cannot see hatloop's process. */
  isolate?: boolean;
  /** Confined by this policy (sandbox/runtime.ts), in place of `isolate`. */
  sandbox?: SandboxPolicy;
  /** Written to the command's stdin (a hook's event); default: no stdin. */
  input?: string;
  /** Output kept from the start and from the end; the middle is cut with a note. */
  headChars: number;
  tailChars: number;
}

export interface ShellRun {
  /** stdout and stderr interleaved, ANSI stripped, capped. */
  output: string;
  exitCode: number | null;
  /** Set when the shell was ended by a signal. */
  signalName: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Characters cut from the middle of the output. */
  cutChars: number;
}

const KILL_GRACE_MS = 500;
/** After the kill, how long to wait for pipes to close before giving up on stragglers. */
const DRAIN_LIMIT_MS = 2_000;

/**
 * Runs `command` with bash in its own process group. On timeout or abort the whole group is
 * killed; when the shell exits, processes it left in the background are killed too, so a
 * leftover server can neither hold the output pipe open nor outlive the call.
 */
export async function runShell(options: ShellOptions): Promise<ShellRun> {
  const started = Date.now();
  const buffer = new HeadTailBuffer(options.headChars, options.tailChars);
  if (options.signal?.aborted) return finish(buffer, started, { exitCode: null, signalName: null, timedOut: false, aborted: true });

  // `exec 2>&1` makes stderr share stdout's pipe, so the two stay in their true order.
  const script = `exec 2>&1\n${options.command}`;
  const sandboxed = options.sandbox ? await sandboxLaunch(script, options.sandbox) : undefined;
  const [program, ...args] = sandboxed?.argv ?? launch(["bash", "-c", script], options.isolate === true);
  const child = execa(program, args, {
    cwd: options.cwd,
    env: options.env ?? childEnv(),
    extendEnv: false,
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
    buffer: false,
    reject: false,
    detached: true,
  });
  const untrack = trackGroup(child.pid);
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => buffer.push(chunk));
  }

  let timedOut = false;
  let aborted = false;
  let giveUp: (value: undefined) => void = () => undefined;
  const gaveUp = new Promise<undefined>((resolve) => (giveUp = resolve));
  let drainTimer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    killTree(child.pid, KILL_GRACE_MS);
    drainTimer ??= setTimeout(() => giveUp(undefined), KILL_GRACE_MS + DRAIN_LIMIT_MS);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    stop();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  child.once("exit", () => killTree(child.pid, KILL_GRACE_MS));

  try {
    const settled = await Promise.race([child, gaveUp]);
    if (settled === undefined) {
      // Something escaped the group and still holds the pipe: stop reading and move on.
      child.stdout.destroy();
      child.stderr.destroy();
    }
    const exitCode = settled?.exitCode ?? child.exitCode ?? null;
    const signalName = settled?.signal ?? child.signalCode ?? null;
    return finish(
      buffer,
      started,
      { exitCode, signalName, timedOut, aborted },
      sandboxed && { launch: sandboxed, policy: options.sandbox! },
    );
  } finally {
    sandboxed?.release();
    clearTimeout(timer);
    clearTimeout(drainTimer);
    untrack();
    options.signal?.removeEventListener("abort", onAbort);
  }
}

function launch(argv: [string, ...string[]], isolate: boolean): [string, ...string[]] {
  return isolate ? isolated(argv) : argv;
}

function finish(
  buffer: HeadTailBuffer,
  started: number,
  status: Pick<ShellRun, "exitCode" | "signalName" | "timedOut" | "aborted">,
  sandboxed?: { launch: SandboxLaunch; policy: SandboxPolicy },
): ShellRun {
  let output = stripVTControlCharacters(buffer.text());
  // A refusal by the sandbox says so, with what is allowed, so the model can change course.
  if (sandboxed) output += blockedNote(sandboxed.launch, sandboxed.policy, output, status.exitCode);
  return { ...status, output, durationMs: Date.now() - started, cutChars: buffer.cutChars };
}
