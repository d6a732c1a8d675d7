import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { openStore, type DbStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { HUNG_MS, runHatloop } from "./hatloop.js";

const bin = new URL("../../dist/bin.js", import.meta.url).pathname;

/** A bare repository on disk, the fleet's remote, with one commit on main. */
export function bareRemote(): { root: string; remote: string } {
  const root = mkdtempSync(join(tmpdir(), "hatloop-fleet-"));
  const remote = join(root, "remote.git");
  const seed = join(root, "seed");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], { cwd, stdio: "ignore" });
  mkdirSync(seed);
  git(root, "init", "-q", "--bare", remote);
  writeFileSync(join(seed, "README.md"), "# app\n");
  git(seed, "init", "-q");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "initial");
  git(seed, "push", "-q", remote, "HEAD:refs/heads/main");
  return { root, remote };
}

interface WorkerEvent {
  worker: string;
  event: string;
  at: string;
  session?: string;
  status?: string;
  [key: string]: unknown;
}

export interface WorkerProcess {
  name: string;
  pid: number;
  events: WorkerEvent[];
  waitFor(match: (e: WorkerEvent) => boolean): Promise<WorkerEvent>;
  kill(signal: NodeJS.Signals): void;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** `hatloop worker --json` as a process; its log lines are parsed as they come. */
export function startWorker(name: string, env: Record<string, string>, args: string[] = [], node = process.execPath): WorkerProcess {
  const child = spawn(node, [bin, "worker", "--name", name, "--json", ...args], {
    env: { PATH: process.env.PATH, HOME: env.HATLOOP_HOME ?? process.env.HOME, ...env },
  });
  const events: WorkerEvent[] = [];
  const waiters: Array<() => void> = [];
  let pending = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    pending += d.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("{")) events.push(JSON.parse(line) as WorkerEvent);
    waiters.splice(0).forEach((w) => w());
  });
  child.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    name,
    pid: child.pid!,
    events,
    async waitFor(match) {
      const deadline = Date.now() + HUNG_MS;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`worker ${name}: no such event; stderr: ${stderr}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 200))]);
      }
    },
    kill: (signal) => child.kill(signal),
    done,
  };
}

/** A scenario of `steps` turns that each write a note (taking `delayMs`), then task_complete. */
export function fleetScenario(dir: string, steps: number, delayMs: number): string {
  const lines = Array.from({ length: steps }, (_, i) =>
    JSON.stringify({
      text: `Step ${i + 1}: writing its note.`,
      tools: [{ name: "write_file", input: { path: `notes/${i + 1}.txt`, content: `step ${i + 1}\n` } }],
      delay_ms: delayMs,
      chunk_chars: 16,
    }),
  );
  lines.push(JSON.stringify({ text: "All notes written.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] }));
  const path = join(dir, "scenario.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/**
 * The environment of a fleet test's processes: its Postgres, its own home, the default heartbeat,
 * supervision and poll (what a user gets), and a short lease for the tests of a stalled runner.
 */
export function fleetEnv(url: string, root: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: url,
    HATLOOP_HOME: join(root, "home"),
    HATLOOP_CONFIG: join(root, "none.json"),
    HATLOOP_LEASE_TTL: "5s",
    HATLOOP_CHECKPOINT__INTERVAL: "1",
    ...extra,
  };
}

/** `hatloop submit` of a scripted session in the editor hat; its id. */
export async function submit(
  env: Record<string, string>,
  remote: string,
  scenario: string,
  task: string,
  extra: string[] = [],
): Promise<string> {
  const ran = await runHatloop(
    ["submit", task, "--repo", remote, "--hat", "editor", "--model", `scripted:${scenario}`, "--json", ...extra],
    env,
  );
  expect(ran.code, ran.stderr).toBe(0);
  return (JSON.parse(ran.stdout) as { id: string }).id;
}

/** fleetScenario in a directory of its own under `root`. */
export function scenarioIn(root: string, name: string, steps: number, delayMs: number): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return fleetScenario(dir, steps, delayMs);
}

/** Every stored message once (seqs 1..n) and every iteration run once (one model answer each, in order). */
export async function expectExactlyOnce(store: DbStore, id: string): Promise<void> {
  const session = (await store.sessions.get(id))!;
  const messages = await store.messages.range(id, 1, 100_000);
  expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
  const answers = messages.filter((m) => m.kind === "conversation" && m.message.role === "assistant").map((m) => m.iteration);
  expect(answers).toEqual(answers.map((_, i) => i + 1));
  expect(answers.length).toBe(session.iteration);
}

export interface Fleet {
  store: DbStore;
  root: string;
  remote: string;
  env: Record<string, string>;
  /** Workers started by the test: killed at the end, whatever happened. */
  workers: WorkerProcess[];
}

/** A test's own database, bare remote and environment; its workers are killed and the database dropped after. */
export async function withFleet(test: (fleet: Fleet) => Promise<void>, extraEnv: Record<string, string> = {}): Promise<void> {
  const database = await createTestDatabase({ migrated: true });
  const store = await openStore({ url: database.url });
  const { root, remote } = bareRemote();
  const fleet: Fleet = { store, root, remote, env: fleetEnv(database.url, root, extraEnv), workers: [] };
  try {
    await test(fleet);
  } finally {
    for (const w of fleet.workers) w.kill("SIGKILL");
    await Promise.all(fleet.workers.map((w) => w.done));
    await store.close();
    await database.drop();
  }
}
