import { execFileSync } from "node:child_process";
import { cpus, loadavg, tmpdir } from "node:os";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sandboxConfigSchema } from "@hatloop/core";
import { isolationAvailable, runShell, sandboxPolicy, sandboxSupport, type SandboxPolicy } from "@hatloop/tools";
import { median, round } from "../util/stats.js";

// What a command costs to start under each confinement: a plain child process, today's PID namespace
// (isolate) and the sandbox (bubblewrap, the proxy's bridges, the library's policy walk). The three
// run alternated, one after another, so the machine's load falls on all of them alike. Medians.

const COMMANDS = ["true", "git status --short"];
type Mode = "plain" | "isolated" | "sandboxed";

interface SandboxJson {
  bench: "sandbox";
  runs: number;
  medians: Array<{ command: string; mode: Mode; ms: number }>;
  machine: { node: string; cores: number; cpu: string; loadAverage: { start: number[]; end: number[] } };
}

export async function sandboxCommand(quick: boolean, log: (line: string) => void): Promise<{ json: SandboxJson; markdown: string }> {
  const support = sandboxSupport();
  if (!support.ok) throw new Error(`no sandbox on this machine: ${support.reason}`);
  const loadStart = loadavg();
  const root = mkdtempSync(join(tmpdir(), "hatloop-bench-sandbox-"));
  const worktree = join(root, "repo");
  execFileSync("git", ["init", "-q", worktree]);
  const policy: SandboxPolicy = sandboxPolicy(sandboxConfigSchema.parse({}), {
    worktree,
    gitDir: join(worktree, ".git"),
    worktreesDir: join(root, "worktrees"),
    hatloopDirs: [join(root, "data")],
  });
  const runs = quick ? 5 : 30;
  const modes: Mode[] = ["plain", ...(isolationAvailable() ? (["isolated"] as const) : []), "sandboxed"];
  const times = new Map<string, number[]>();
  try {
    for (const command of COMMANDS) {
      for (let i = 0; i < runs + 1; i++) {
        for (const mode of modes) {
          const started = performance.now();
          const run = await runShell({
            command,
            cwd: worktree,
            timeoutMs: 60_000,
            headChars: 1_000,
            tailChars: 1_000,
            isolate: mode === "isolated",
            ...(mode === "sandboxed" ? { sandbox: policy } : {}),
          });
          if (run.exitCode !== 0) throw new Error(`${command} (${mode}) failed: ${run.output}`);
          // The first round warms up (the library starts its proxy on its first command).
          if (i > 0) times.set(`${command}\0${mode}`, [...(times.get(`${command}\0${mode}`) ?? []), performance.now() - started]);
        }
      }
      log(`sandbox: ${command} done`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const medians = COMMANDS.flatMap((command) =>
    modes.map((mode) => ({ command, mode, ms: round(median(times.get(`${command}\0${mode}`)!), 1) })),
  );
  const json: SandboxJson = {
    bench: "sandbox",
    runs,
    medians,
    machine: {
      node: process.version,
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? "unknown",
      loadAverage: { start: loadStart.map((n) => round(n, 2)), end: loadavg().map((n) => round(n, 2)) },
    },
  };
  return { json, markdown: render(json, modes) };
}

function render(json: SandboxJson, modes: Mode[]): string {
  const ms = (command: string, mode: Mode) => json.medians.find((m) => m.command === command && m.mode === mode)!.ms;
  return [
    "## Sandbox bench",
    "",
    `One command through \`runShell\` (what \`run_command\` and the gates use), start to exit; median of ${json.runs} alternated runs.`,
    `Node ${json.machine.node}, ${json.machine.cores} × ${json.machine.cpu}, load average ${json.machine.loadAverage.start.join(" / ")} at start, ${json.machine.loadAverage.end.join(" / ")} at end.`,
    "",
    `| command | ${modes.join(" | ")} | sandboxed − ${modes.includes("isolated") ? "isolated" : "plain"} |`,
    `|---|${modes.map(() => "---:").join("|")}|---:|`,
    ...COMMANDS.map((command) => {
      const base = ms(command, modes.includes("isolated") ? "isolated" : "plain");
      return `| \`${command}\` | ${modes.map((mode) => `${ms(command, mode)} ms`).join(" | ")} | ${round(ms(command, "sandboxed") - base, 1)} ms |`;
    }),
  ].join("\n");
}
