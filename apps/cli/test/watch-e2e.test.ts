import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { createTestDatabase, testDrivers } from "@hatloop/db/testing";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

const bin = new URL("../dist/bin.js", import.meta.url).pathname;

interface Seen {
  key: string;
  at: number;
}

/** Starts the binary; records when each JSON event line arrives, keyed by type, iteration and id. */
function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env } });
  const seen: Seen[] = [];
  let sessionId: string | null = null;
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    const event = JSON.parse(line) as { type: string; iteration: number; sessionId: string; data: { id?: string } };
    sessionId ??= event.sessionId;
    seen.push({ key: `${event.type}:${event.iteration}:${event.data.id ?? ""}`, at: performance.now() });
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, seen, exited, id: () => sessionId, stderr: () => stderr };
}

describe.each(testDrivers())("hatloop watch on %s", (driver) => {
  it("follows a running session from another process; each event arrives within a second", async () => {
    const { repo, root } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-watch-"));
    const database = driver === "postgres" ? await createTestDatabase() : null;
    const env = { HOME: home, HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), ...(database ? { DATABASE_URL: database.url } : {}) };
    try {
      const runner = start(["run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${writeScenario(root, 12, 60)}`, "--json"], env);
      while (!runner.id()) await new Promise((r) => setTimeout(r, 50));
      const watcher = start(["watch", runner.id()!.slice(0, 8), "--json"], env);
      expect(await runner.exited, runner.stderr()).toBe(0);
      expect(await watcher.exited, watcher.stderr()).toBe(0);
      const watched = new Map(watcher.seen.map((s) => [s.key, s.at]));
      // Events emitted after the watcher attached: the run's last 8 tool calls and results.
      const live = runner.seen.filter((s) => /^tool\.(call|result):/.test(s.key)).slice(-16);
      const latencies = live.map((s) => watched.get(s.key)! - s.at);
      expect(latencies.every((l) => Number.isFinite(l))).toBe(true);
      expect(Math.max(...latencies)).toBeLessThan(1_000);
      expect(watcher.seen.at(-1)?.key).toMatch(/^session\.end:/);
    } finally {
      await database?.drop();
    }
  });
});
