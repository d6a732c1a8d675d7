import type { GatePort, GateReport, HatloopConfig } from "@hatloop/core";
import {
  childEnv,
  resolveGateCommands,
  runGates,
  takeBaseline,
  type GateBaseline,
  type GateCommands,
  type SandboxPolicy,
} from "@hatloop/tools";
import { sandboxFor } from "./sandbox.js";

// The quality gates of a session: the project's own test, lint and build commands (configured, else
// detected), compared with a baseline taken when the session started, so failures that were there
// before the task do not block it and new ones do.

export async function gateCommands(worktree: string, config: HatloopConfig): Promise<GateCommands> {
  const { test, lint, build, detect } = config.gates;
  return resolveGateCommands(worktree, { test, lint, build, detect });
}

export async function baselineFor(
  worktree: string,
  commands: GateCommands,
  config: HatloopConfig,
  signal?: AbortSignal,
): Promise<GateBaseline> {
  const sandbox = await sandboxFor(worktree, config);
  return takeBaseline({
    dir: worktree,
    commands,
    timeoutMs: config.gates.timeout,
    signal,
    env: childEnv(process.env, config.tools.passEnv),
    isolate: config.tools.isolate === "auto",
    ...(sandbox ? { sandbox } : {}),
  });
}

export function gatePort(
  worktree: string,
  commands: GateCommands,
  baseline: GateBaseline | undefined,
  config: HatloopConfig,
  sandbox: SandboxPolicy | undefined,
): GatePort {
  return {
    run: (signal): Promise<GateReport> =>
      runGates({
        dir: worktree,
        commands,
        timeoutMs: config.gates.timeout,
        signal,
        baseline,
        env: childEnv(process.env, config.tools.passEnv),
        isolate: config.tools.isolate === "auto",
        ...(sandbox ? { sandbox } : {}),
      }),
  };
}
