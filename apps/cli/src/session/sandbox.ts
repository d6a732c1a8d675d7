import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { HatloopConfig } from "@hatloop/core";
import { hatloopHome } from "@hatloop/db";
import { remoteHostOf, remoteUrl, sandboxPolicy, sandboxSupport, type SandboxPolicy } from "@hatloop/tools";
import { usageError } from "../errors.js";

// The sandbox a session's commands, gates and project MCP servers run in (docs/security.md#the-sandbox),
// or none: `off`, or `auto` where the machine cannot sandbox (said once, in one line). `on` where it
// cannot is a usage error, before the session's first command.

let told = false;

export async function sandboxFor(worktree: string, config: HatloopConfig): Promise<SandboxPolicy | undefined> {
  const settings = config.tools.sandbox;
  if (settings.mode === "off") return undefined;
  const support = sandboxSupport();
  if (!support.ok) {
    if (settings.mode === "on") throw usageError(`tools.sandbox.mode is on, but ${support.reason}`);
    if (!told)
      process.stderr.write(
        `hatloop: no sandbox here: ${support.reason}. The agent's commands share your files and network (docs/security.md#the-sandbox; --sandbox off hides this line).\n`,
      );
    told = true;
    return undefined;
  }
  const gitDir = await git(worktree, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  const repoRoot = path.dirname(gitDir);
  const url = await remoteUrl(worktree, "origin");
  const remoteHost = url ? remoteHostOf(url) : undefined;
  return sandboxPolicy(settings, {
    worktree,
    gitDir,
    worktreesDir: config.worktreeDir ? path.resolve(config.worktreeDir) : path.join(path.dirname(repoRoot), ".hatloop-worktrees"),
    hatloopDirs: [hatloopHome(), path.join(tmpdir(), `hatloop-${process.getuid?.() ?? "user"}`)],
    ...(remoteHost ? { remoteHost } : {}),
  });
}

async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("git", ["-C", dir, ...args], { encoding: "utf8" });
  return stdout.trim();
}
