import { redactSecrets } from "@hatloop/context";
import type { GateCheck, GateReport } from "@hatloop/core";
import type { SandboxPolicy } from "../sandbox/policy.js";
import { runShell } from "../shell/run-shell.js";
import { capHeadTail } from "../text/cap-output.js";
import { GATE_ORDER, type GateCommands, type GateName } from "./detect.js";
import { extractFailureLines } from "./failure-lines.js";

// Runs the project's checks. A check that failed before the session started (the baseline)
// and fails now without any new failure line is "acceptable": reported, but not blocking.

export interface GateRunOptions {
  dir: string;
  commands: GateCommands;
  /** Per check. */
  timeoutMs: number;
  signal?: AbortSignal;
  baseline?: GateBaseline;
  /** The commands' environment (default: childEnv() of this process). */
  env?: Record<string, string>;
  /** Each check in a PID namespace of its own where the machine allows it (it runs the agent's code). */
  isolate?: boolean;
  /** Each check confined by this policy (it runs the agent's code), in place of `isolate`. */
  sandbox?: SandboxPolicy;
}

/** What the checks looked like at session start; JSON-serialisable, stored by the caller. */
export interface GateBaseline {
  version: 1;
  takenAt: string;
  checks: Partial<Record<GateName, BaselineCheck>>;
}

export interface BaselineCheck {
  command: string;
  passed: boolean;
  timedOut: boolean;
  exitCode: number | null;
  /** Normalised failure lines (see extractFailureLines). */
  failures: string[];
}

export class GatesAbortedError extends Error {
  override readonly name = "AbortError";
  constructor() {
    super("the quality gates were aborted");
  }
}

/** Kept per check for the report; the failure lines are taken from a larger capture first. */
const REPORT_OUTPUT_CHARS = 10_000;
const CAPTURE_HEAD = 20_000;
const CAPTURE_TAIL = 80_000;

export async function runGates(options: GateRunOptions): Promise<GateReport> {
  const checks: GateCheck[] = [];
  for (const name of GATE_ORDER) {
    const command = options.commands[name];
    if (!command) continue; // not configured or detected: skipped, which is not a failure
    const { check } = await runCheck(name, command, options);
    checks.push(check);
  }
  return { passed: checks.every((c) => c.acceptable), checks };
}

export async function takeBaseline(options: Omit<GateRunOptions, "baseline">): Promise<GateBaseline> {
  const checks: GateBaseline["checks"] = {};
  for (const name of GATE_ORDER) {
    const command = options.commands[name];
    if (!command) continue;
    const { check, failures } = await runCheck(name, command, options);
    checks[name] = { command, passed: check.passed, timedOut: check.timedOut, exitCode: check.exitCode, failures };
  }
  return { version: 1, takenAt: new Date().toISOString(), checks };
}

async function runCheck(name: GateName, command: string, options: GateRunOptions): Promise<{ check: GateCheck; failures: string[] }> {
  const run = await runShell({
    command,
    cwd: options.dir,
    timeoutMs: options.timeoutMs,
    headChars: CAPTURE_HEAD,
    tailChars: CAPTURE_TAIL,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
    isolate: options.isolate === true,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  if (run.aborted) throw new GatesAbortedError();
  const passed = !run.timedOut && run.exitCode === 0;
  const failures = passed ? [] : extractFailureLines(run.output);
  const before = options.baseline?.checks[name];
  // A baseline only speaks for the same command; a changed command starts from nothing. It is
  // stored with secrets redacted, so both sides are compared redacted.
  const comparable =
    before !== undefined && redactSecrets(before.command) === redactSecrets(command) && !before.passed ? before : undefined;
  const known = new Set((comparable?.failures ?? []).map(redactSecrets));
  const newFailures = failures.filter((line) => !known.has(redactSecrets(line)));
  const acceptable = passed || (comparable !== undefined && newFailures.length === 0 && (!run.timedOut || comparable.timedOut));
  const check: GateCheck = {
    name,
    command,
    exitCode: run.exitCode,
    passed,
    acceptable,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    newFailures,
    output: capHeadTail(run.output, REPORT_OUTPUT_CHARS),
  };
  return { check, failures };
}
