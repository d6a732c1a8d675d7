import { z } from "zod";

// One section of the configuration (config.ts), in a file of its own: the sandbox's settings.

/**
 * The sandbox of the agent's commands, the gates and the stdio MCP servers (docs/security.md#the-sandbox):
 * writes confined to the worktree and these paths, secret locations hidden, the network limited to an
 * allow-list or cut off, processes and file sizes capped.
 */
export const sandboxConfigSchema = z
  .object({
    mode: z
      .enum(["auto", "on", "off"])
      .default("auto")
      .describe(
        "`auto`: sandboxed where the machine allows it (Linux with bubblewrap, socat and ripgrep; macOS), else one notice line and the PID namespace of `isolate`; `on`: a run that cannot sandbox stops (exit 2); `off`: no sandbox (`--sandbox`). See [security.md](security.md#the-sandbox).",
      ),
    allowWrite: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Paths the sandboxed commands may write beyond the worktree, a private temp dir and the package caches that exist (`~/.npm`, `~/.cache`, ...); `~/` is your home.",
      ),
    denyRead: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Paths hidden from the sandboxed commands beyond the built-in secret locations (`~/.ssh`, `~/.aws`, `~/.config/gh`, ..., other worktrees, hatloop's data directory).",
      ),
    network: z
      .enum(["allow-list", "none"])
      .default("allow-list")
      .describe(
        "`allow-list`: only the package registries, the repository's git remote and `allowHosts` are reachable, through a filtering proxy; `none`: no network at all.",
      ),
    allowHosts: z
      .array(z.string().min(1))
      .default([])
      .describe("Hosts reachable beyond the built-in registries and the git remote: `example.com`, `*.example.com`, `host:port`."),
    maxProcesses: z
      .number()
      .int()
      .positive()
      .default(1_024)
      .describe("Processes a sandboxed command may have at once (`ulimit -u`; not enforced for root), so a fork bomb stops there."),
    maxFileMb: z.number().int().positive().default(4_096).describe("Largest file a sandboxed command may write, in MiB (`ulimit -f`)."),
  })
  .strict();

export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
