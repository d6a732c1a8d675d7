import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SandboxManager, type SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";
import type { SandboxPolicy } from "./policy.js";

// The sandbox is Anthropic's sandbox-runtime (the one Claude Code uses): bubblewrap on Linux, Seatbelt
// on macOS, and a filtering proxy in this process that every connection from inside goes through. It
// is set up once per process with nothing allowed; each command brings its session's policy (the
// files per wrap, the hosts as a list registered under the command's random id).

export type SandboxSupport = { ok: true } | { ok: false; reason: string };

let support: SandboxSupport | undefined;

/** Whether this machine can sandbox, and if not, why and what to do (probed once). */
export function sandboxSupport(): SandboxSupport {
  support ??= probe();
  return support;
}

function probe(): SandboxSupport {
  if (!SandboxManager.isSupportedPlatform()) return { ok: false, reason: `no sandbox on ${process.platform} (Linux and macOS only)` };
  const { errors } = SandboxManager.checkDependencies();
  if (errors.length) {
    const hint = process.platform === "linux" ? ": install bubblewrap, socat and ripgrep (apt-get install bubblewrap socat ripgrep)" : "";
    return { ok: false, reason: `${errors.join("; ")}${hint}` };
  }
  if (process.platform === "linux") {
    const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-all", "--die-with-parent", "true"];
    const run = spawnSync("bwrap", args, { encoding: "utf8", timeout: 10_000 });
    if (run.status !== 0) {
      const why = (run.stderr || run.error?.message || "").trim().split("\n")[0];
      return {
        ok: false,
        reason: `bubblewrap cannot create namespaces here (${why}): allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 an AppArmor profile for bwrap)`,
      };
    }
  }
  return { ok: true };
}

let ready: Promise<void> | undefined;
let scratch: string | undefined;

function start(): Promise<void> {
  ready ??= SandboxManager.initialize(NOTHING_ALLOWED);
  return ready;
}

const NOTHING_ALLOWED: SandboxRuntimeConfig = {
  network: { allowedDomains: [], deniedDomains: [] },
  filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] },
  // Its scan for dangerous files runs in this process's directory, which is not the worktree; the
  // worktree's own are covered by the policy (denyWrite), so the scan is kept shallow.
  mandatoryDenySearchDepth: 1,
};

/** The commands' temp dir: private to this process, removed by closeSandbox (or when it exits). */
function tempDir(): string {
  if (!scratch) {
    const dir = mkdtempSync(path.join(tmpdir(), "hatloop-sandbox-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    scratch = dir;
  }
  return scratch;
}

/**
 * Stops the proxy and its bridge process (which would keep this process alive) and removes the temp
 * dir: for a command that ran sessions, when it is done with them. A later command starts them again.
 */
export async function closeSandbox(): Promise<void> {
  if (ready) {
    await ready.catch(() => undefined);
    await SandboxManager.reset();
    ready = undefined;
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
}

export interface SandboxLaunch {
  argv: [string, ...string[]];
  /** The key the library files this command's blocked connections under. */
  commandId: string;
  /** Ends the command's network allowance: call when it has exited. */
  release(): void;
}

/** `script` (bash) wrapped to run under `policy`; the caller spawns `argv`, and calls `release` when it exits. */
export async function sandboxLaunch(script: string, policy: SandboxPolicy): Promise<SandboxLaunch> {
  await start();
  const temp = tempDir();
  const commandId = randomBytes(16).toString("base64url");
  const inner = [
    `ulimit -u ${policy.maxProcesses} 2>/dev/null; ulimit -f ${policy.maxFileMb * 1024}`,
    `export TMPDIR=${quoted(temp)} TMP=${quoted(temp)} TEMP=${quoted(temp)}`,
    script,
  ].join("\n");
  const custom: Partial<SandboxRuntimeConfig> = {
    filesystem: {
      allowRead: [policy.worktree, temp, ...policy.allowRead],
      allowWrite: [policy.worktree, temp, ...policy.allowWrite],
      denyRead: policy.denyRead,
      denyWrite: policy.denyWrite,
    },
    network: { allowedDomains: [], deniedDomains: [] },
  };
  if (policy.network === "allow-list") SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: policy.allowHosts });
  try {
    const wrapped = await SandboxManager.wrapWithSandbox(inner, "bash", custom, undefined, { commandId, commandText: script });
    return { argv: ["bash", "-c", wrapped], commandId, release: () => SandboxManager.unregisterCommandNetworkLists(commandId) };
  } catch (error) {
    SandboxManager.unregisterCommandNetworkLists(commandId);
    throw error;
  }
}

const quoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

const BLOCKED =
  /Read-only file system|Invalid cross-device link|Operation not permitted|Permission denied|File size limit exceeded|Resource temporarily unavailable|CONNECT tunnel failed|403 Forbidden|Could not resolve host|blocked-by-sandbox/i;

/**
 * What to tell the model after a failed sandboxed command that may have been stopped by the sandbox:
 * the connections the proxy refused, and what the sandbox allows and how to go on. Empty otherwise.
 */
export function blockedNote(launch: SandboxLaunch, policy: SandboxPolicy, output: string, exitCode: number | null): string {
  const refused = SandboxManager.annotateStderrWithSandboxFailures(launch.commandId, "").trim();
  if (exitCode === 0 || (!refused && !BLOCKED.test(output))) return "";
  const network = policy.network === "none" ? "no network at all" : `network only to ${policy.allowHosts.join(", ")}`;
  return [
    ...(refused ? ["", refused] : []),
    "",
    `[hatloop sandbox] This command ran confined: it may write only in the worktree (${policy.worktree}), $TMPDIR and ${policy.allowWrite.length} allowed cache path(s); secret locations (~/.ssh, ~/.aws, other worktrees, ...) are hidden and look missing; ${network}; at most ${policy.maxProcesses} processes and ${policy.maxFileMb} MiB per file.`,
    "If the failure above comes from that, do the work inside the worktree (scratch files in $TMPDIR). If the task truly needs another path or host, say so in your handoff: the user can allow it (tools.sandbox.allowWrite, tools.sandbox.allowHosts) or turn the sandbox off.",
  ].join("\n");
}
