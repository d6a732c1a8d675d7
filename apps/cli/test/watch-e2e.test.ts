import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { expect, it } from "vitest";
import { createTestDatabase } from "@hatloop/db/testing";
import { describeOnDrivers } from "../../../db/test/support/drivers.js";
import { makeRepo } from "./support/repo.js";
import { until } from "./support/until.js";

const bin = new URL("../dist/bin.js", import.meta.url).pathname;

interface Seen {
  key: string;
  name: string | undefined;
  at: number;
}

/** Starts the binary; records when each JSON event line arrives, keyed by type, iteration and id. */
function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env } });
  const seen: Seen[] = [];
  let sessionId: string | null = null;
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    const event = JSON.parse(line) as { type: string; iteration: number; sessionId: string; data: { id?: string; name?: string } };
    sessionId ??= event.sessionId;
    seen.push({ key: `${event.type}:${event.iteration}:${event.data.id ?? ""}`, name: event.data.name, at: performance.now() });
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, seen, exited, id: () => sessionId, stderr: () => stderr };
}

/**
 * An editor session of 12 turns that each write a note, then task_complete. Turns 3 and 9 run a
 * command that waits for a file the test creates: the runner is held while the test looks at the
 * watcher, so "the watcher follows a running session" needs no clock.
 */
function heldScenario(root: string, gates: [string, string]): string {
  const write = (i: number) => ({
    text: `Step ${i} of the work, writing its note.`,
    tools: [{ name: "write_file", input: { path: `notes/${i}.txt`, content: `step ${i}\n` } }],
    delay_ms: 20,
    chunk_chars: 8,
  });
  const hold = (gate: string) => ({
    text: "Waiting for the go-ahead.",
    tools: [{ name: "run_command", input: { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done; echo go` } }],
  });
  const turns: object[] = Array.from({ length: 12 }, (_, i) => (i === 2 ? hold(gates[0]) : i === 8 ? hold(gates[1]) : write(i + 1)));
  turns.push({ text: "All steps written.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] });
  const path = join(root, "held-scenario.jsonl");
  writeFileSync(path, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return path;
}

describeOnDrivers("hatloop watch and logs -f on %s", (driver) => {
  it("follow a running session from another process: they show what came before, then every new event, in order", async () => {
    const { repo, root } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-watch-"));
    const database = driver === "postgres" ? await createTestDatabase({ migrated: true }) : null;
    const env = {
      HOME: home,
      HATLOOP_HOME: home,
      HATLOOP_CONFIG: join(home, "none.json"),
      HATLOOP_TOOLS__COMMAND_TIMEOUT: "30m", // the held commands wait for the test, however slow the machine
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    const gates: [string, string] = [join(root, "go-1"), join(root, "go-2")];
    try {
      const runner = start(
        ["run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${heldScenario(root, gates)}`, "--json"],
        env,
      );
      const held = (n: number) => () => runner.seen.filter((s) => s.key.startsWith("tool.call:") && s.name === "run_command")[n];
      const firstHold = await until("the runner held at its first command", held(0));
      const followers = {
        watch: start(["watch", runner.id()!.slice(0, 8), "--json"], env),
        "logs -f": start(["logs", runner.id()!.slice(0, 8), "-f", "--json"], env),
      };
      const showing = (key: string) => () => Object.values(followers).every((f) => f.seen.some((s) => s.key === key));
      // The runner is held: the followers show the history up to the hold while the session runs.
      await until("the followers showing the first hold", showing(firstHold.key));
      writeFileSync(gates[0], "");
      // Held again: an event written after they attached reaches them while the session runs.
      const secondHold = await until("the runner held at its second command", held(1));
      await until("the followers showing the second hold", showing(secondHold.key));
      writeFileSync(gates[1], "");

      expect(await runner.exited, runner.stderr()).toBe(0);
      // Every tool event from the first hold on, none missing, none reordered, none doubled.
      const tools = (seen: Seen[]) => seen.filter((s) => /^tool\.(call|result):/.test(s.key));
      const live = tools(runner.seen).slice(tools(runner.seen).findIndex((s) => s.key === firstHold.key));
      expect(live.length).toBeGreaterThanOrEqual(20);
      const keys = new Set(live.map((s) => s.key));
      for (const [name, follower] of Object.entries(followers)) {
        expect(await follower.exited, `${name}: ${follower.stderr()}`).toBe(0);
        expect(
          tools(follower.seen)
            .filter((s) => keys.has(s.key))
            .map((s) => s.key),
          name,
        ).toEqual(live.map((s) => s.key));
        expect(follower.seen.at(-1)?.key, name).toMatch(/^session\.end:/);
        // How soon each arrived is a figure for `pnpm bench` (printed here), not a claim a loaded machine can break.
        const seenAt = new Map(follower.seen.map((s) => [s.key, s.at]));
        const latencies = live.slice(2).map((s) => seenAt.get(s.key)! - s.at);
        console.log(`${name} latency on ${driver}: max ${Math.round(Math.max(...latencies))} ms over ${latencies.length} events`);
      }
    } finally {
      await database?.drop();
    }
  });
});
