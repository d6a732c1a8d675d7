import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The fleet bench's moving parts: the built `hatloop` binary run as real processes (submit, worker),
// a bare repository on disk as the remote, scripted scenarios. Workers log JSON lines (--json), which
// are parsed as they come; every timing is taken from those lines.

/** apps/cli/dist/bin.js, from bench/dist/fleet/ (or bench/src/fleet/ under vitest). */
export const HATLOOP_BIN = fileURLToPath(new URL("../../../apps/cli/dist/bin.js", import.meta.url));

/** Hang guard only: a worker or submit that says nothing for this long is given up on. */
const HUNG_MS = 5 * 60_000;

export interface FleetSettings {
  heartbeat: string;
  supervise: string;
  poll: string;
  leaseTtl: string;
}

export interface Rig {
  root: string;
  remote: string;
  env: Record<string, string>;
}

/** A scratch directory with a bare remote (one commit on main) and the environment every process gets. */
export function makeRig(databaseUrl: string, settings: FleetSettings): Rig {
  const root = mkdtempSync(join(tmpdir(), "hatloop-bench-fleet-"));
  const remote = join(root, "remote.git");
  const seed = join(root, "seed");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "init.defaultBranch=main", ...args], {
      cwd,
      stdio: "ignore",
    });
  mkdirSync(seed);
  git(root, "init", "-q", "--bare", remote);
  writeFileSync(join(seed, "README.md"), "# app\n");
  git(seed, "init", "-q");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "initial");
  git(seed, "push", "-q", remote, "HEAD:refs/heads/main");
  const env = {
    DATABASE_URL: databaseUrl,
    HATLOOP_HOME: join(root, "home"),
    HATLOOP_CONFIG: join(root, "none.json"),
    HATLOOP_FLEET__HEARTBEAT: settings.heartbeat,
    HATLOOP_FLEET__SUPERVISE: settings.supervise,
    HATLOOP_FLEET__POLL: settings.poll,
    HATLOOP_LEASE_TTL: settings.leaseTtl,
  };
  return { root, remote, env };
}

/** `steps` turns that each write a note, then task_complete; delayMs 0 is a zero-latency model. */
export function writeScenario(rig: Rig, name: string, steps: number, delayMs: number): string {
  const pace = delayMs > 0 ? { delay_ms: delayMs, chunk_chars: 16 } : {};
  const lines = Array.from({ length: steps }, (_, i) =>
    JSON.stringify({
      text: `Step ${i + 1}: writing its note.`,
      tools: [{ name: "write_file", input: { path: `notes/${i + 1}.txt`, content: `step ${i + 1}\n` } }],
      ...pace,
    }),
  );
  lines.push(JSON.stringify({ text: "All notes written.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] }));
  const path = join(rig.root, `${name}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env["PATH"], HOME: env["HATLOOP_HOME"], ...env };
}

/** `hatloop submit` of one scripted session; resolves with its id. */
function submit(rig: Rig, scenario: string, task: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [HATLOOP_BIN, "submit", task, "--repo", rig.remote, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"],
      { env: childEnv(rig.env) },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), HUNG_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`hatloop submit exited ${code}: ${stderr.trim()}`));
      resolve((JSON.parse(stdout) as { id: string }).id);
    });
  });
}

/** Submits `count` sessions, a few at a time; ids in submission order. */
export async function submitMany(rig: Rig, scenario: string, count: number, parallel = 4): Promise<string[]> {
  const ids: string[] = new Array<string>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        const i = next++;
        ids[i] = await submit(rig, scenario, `write the notes, take ${i + 1}`);
      }
    }),
  );
  return ids;
}

export interface WorkerEvent {
  worker: string;
  event: string;
  /** ISO time the worker logged it. */
  at: string;
  session?: string;
  status?: string;
  [key: string]: unknown;
}

export interface WorkerProcess {
  name: string;
  events: WorkerEvent[];
  waitFor(match: (e: WorkerEvent) => boolean): Promise<WorkerEvent>;
  kill(signal: NodeJS.Signals): void;
  exited(): boolean;
  stderr(): string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `hatloop worker --json` as a process (concurrency 1 unless told). */
export function startWorker(rig: Rig, name: string, concurrency = 1): WorkerProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    [HATLOOP_BIN, "worker", "--name", name, "--json", "--concurrency", String(concurrency)],
    { env: childEnv(rig.env) },
  );
  const events: WorkerEvent[] = [];
  const waiters: Array<() => void> = [];
  let pending = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => {
    pending += d.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("{")) events.push(JSON.parse(line) as WorkerEvent);
    waiters.splice(0).forEach((w) => w());
  });
  child.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return {
    name,
    events,
    async waitFor(match) {
      let last = Date.now();
      let seen = events.length;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        const failed = events.find((e) => e.event === "session failed");
        if (failed) throw new Error(`worker ${name}: session ${failed.session} failed: ${String(failed["error"])}`);
        if (events.length !== seen) [seen, last] = [events.length, Date.now()];
        if (Date.now() - last > HUNG_MS || child.exitCode !== null || child.signalCode !== null)
          throw new Error(
            `worker ${name}: gave up waiting (exit ${child.exitCode ?? child.signalCode}); stderr: ${stderr.trim().slice(-2_000)}`,
          );
        await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 200))]);
      }
    },
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stderr: () => stderr,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    done,
  };
}

/** The first event of any of `workers` that matches (a failed session or a dead worker throws). */
export async function waitAny(workers: readonly WorkerProcess[], match: (e: WorkerEvent) => boolean): Promise<WorkerEvent> {
  let last = Date.now();
  let seen = -1;
  for (;;) {
    const all = workers.flatMap((w) => w.events);
    const found = all.find(match);
    if (found) return found;
    const failed = all.find((e) => e.event === "session failed");
    if (failed) throw new Error(`worker ${failed.worker}: session ${failed.session} failed: ${String(failed["error"])}`);
    if (all.length !== seen) [seen, last] = [all.length, Date.now()];
    if (Date.now() - last > HUNG_MS) throw new Error("fleet bench: the workers said nothing for 5 minutes");
    const gone = workers.find((w) => w.exited());
    if (gone && workers.every((w) => w.exited())) throw new Error(`worker ${gone.name} exited; stderr: ${gone.stderr().slice(-2_000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function binaryBuilt(): boolean {
  return existsSync(HATLOOP_BIN);
}
