import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HATLOOP_BIN } from "../fleet/processes.js";
import { GNU_TIME, GNU_TIME_FORMAT, readGnuTime, type ProcessFigures } from "../startup/timed-process.js";

// The same scripted session run twice in a real terminal (a tmux pane of 120x40): once with the TUI,
// once with --plain. Each is a whole process timed by GNU time (CPU = user + system, peak RSS), so
// the figure is what a person's machine pays for watching a run, not a render loop in isolation.

export interface SideBySidePlan {
  /** Model turns; each streams TURN_CHARS of text in small deltas, then writes a file. */
  turns: number;
  pairs: number;
  /** A Postgres database for both runs; null: the embedded database, as a new user has it. */
  databaseUrl: string | null;
}

const TURN_CHARS = 1_600;
const CHUNK_CHARS = 8;
const DELAY_MS = 12;

export interface SideBySideRun {
  tui: ProcessFigures;
  plain: ProcessFigures;
}

function scenario(turns: number): string {
  const words = "the loop reads a file, edits it, runs the gate and writes down what it learned; ";
  const text = words.repeat(Math.ceil(TURN_CHARS / words.length)).slice(0, TURN_CHARS);
  const lines = Array.from({ length: turns }, (_, i) =>
    JSON.stringify({
      text: `Step ${i + 1}: ${text}`,
      tools: [{ name: "write_file", input: { path: `notes/step-${i + 1}.txt`, content: `step ${i + 1}\n` } }],
      delay_ms: DELAY_MS,
      chunk_chars: CHUNK_CHARS,
    }),
  );
  lines.push(JSON.stringify({ text: "Done.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] }));
  return `${lines.join("\n")}\n`;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", ...args], { cwd, stdio: "ignore" });
}

/** Runs `hatloop run` in a fresh tmux pane under GNU time; resolves when it exits. */
async function paneRun(
  dir: string,
  name: string,
  plain: boolean,
  scenarioFile: string,
  databaseUrl: string | null,
  timeoutMs: number,
): Promise<ProcessFigures> {
  const repo = join(dir, `repo-${name}`);
  git(dir, "init", "-q", "-b", "main", repo);
  writeFileSync(join(repo, "README.md"), "bench\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "init");
  const home = join(dir, `home-${name}`);
  const timeFile = join(dir, `${name}.time`);
  const done = join(dir, `${name}.done`);
  const env = [
    `HATLOOP_HOME=${home}`,
    `HATLOOP_CONFIG=${join(home, "none.json")}`,
    "HATLOOP_DATABASE__LINGER=0",
    "TERM=xterm-256color",
    ...(databaseUrl ? [`HATLOOP_DATABASE_URL=${databaseUrl}`] : []),
  ];
  const command = [
    "env -u CI -u NO_COLOR -u FORCE_COLOR",
    ...env,
    GNU_TIME,
    "-o",
    timeFile,
    "-f",
    `'${GNU_TIME_FORMAT}'`,
    process.execPath,
    HATLOOP_BIN,
    "run",
    "'write the notes'",
    "--repo",
    repo,
    "--hat",
    "editor",
    "--model",
    `scripted:${scenarioFile}`,
    ...(plain ? ["--plain"] : []),
    `; echo $? > ${done}.part; mv ${done}.part ${done}; sleep 5`,
  ].join(" ");
  const session = `hatloop-bench-${name}`;
  const started = performance.now();
  execFileSync("tmux", ["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command]);
  let wallMs: number;
  try {
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(done)) {
      if (Date.now() > deadline) throw new Error(`the ${plain ? "plain" : "TUI"} run did not finish in ${timeoutMs / 1000} s`);
      await sleep(200);
    }
    wallMs = performance.now() - started;
  } finally {
    execFileSync("tmux", ["kill-session", "-t", session], { stdio: "ignore" });
  }
  return { wallMs, ...readGnuTime(timeFile), code: Number(readFileSync(done, "utf8").trim()) };
}

/** Pairs of runs, TUI and plain in turn (which goes first alternates), so load drifts hit both alike. */
export async function sideBySide(plan: SideBySidePlan, log: (line: string) => void): Promise<SideBySideRun[]> {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-bench-tui-"));
  try {
    const file = join(dir, "scenario.jsonl");
    writeFileSync(file, scenario(plan.turns));
    const timeoutMs = 60_000 + plan.turns * 10_000;
    const runs: SideBySideRun[] = [];
    for (let i = 0; i < plan.pairs; i++) {
      const order = i % 2 === 0 ? [false, true] : [true, false];
      const figures: Partial<SideBySideRun> = {};
      for (const plain of order) {
        const f = await paneRun(dir, `${i}-${plain ? "plain" : "tui"}`, plain, file, plan.databaseUrl, timeoutMs);
        if (f.code !== 0) throw new Error(`the ${plain ? "plain" : "TUI"} run exited with ${f.code}`);
        figures[plain ? "plain" : "tui"] = f;
      }
      runs.push(figures as SideBySideRun);
      log(
        `tui${plan.databaseUrl ? " (Postgres)" : ""}: pair ${i + 1}/${plan.pairs}: TUI ${(figures.tui!.cpuMs / 1000).toFixed(1)} s CPU ${figures.tui!.peakRssMb.toFixed(0)} MB, plain ${(figures.plain!.cpuMs / 1000).toFixed(1)} s CPU ${figures.plain!.peakRssMb.toFixed(0)} MB`,
      );
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function tmuxAvailable(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
