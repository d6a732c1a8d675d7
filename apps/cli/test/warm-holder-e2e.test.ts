import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHatloop } from "./support/hatloop.js";
import { until } from "./support/until.js";
import { alive } from "./support/alive.js";
import { withStore } from "./support/store.js";

// database.linger on the embedded database: the first short command opens the free directory itself
// and, as it exits, leaves a warm holder that serves the next commands until nobody has been
// connected for the linger, then closes the directory and goes.

const LINGER = "8s";

/** The warm holders of the database in `home` that are running: their command line names its directory. */
function holdersOf(home: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        return argv.some((arg) => arg.endsWith("warm-holder.js")) && argv.some((arg) => arg.startsWith(home));
      } catch {
        return false; // gone, or not ours to look at
      }
    })
    .map(Number);
}

describe("the warm holder", () => {
  it("is left by a short command, serves the next one, and goes after the linger", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-warm-"));
    const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), HATLOOP_DATABASE__LINGER: LINGER };
    const owner = join(home, "pglite.lock", "owner.json");
    const holderPid = () => existsSync(owner) && (JSON.parse(readFileSync(owner, "utf8")) as { pid: number }).pid;

    const first = await runHatloop(["ls"], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("No sessions yet");
    // The directory is free as the command exits; its holder takes it a moment later.
    const holder = await until("a warm holder takes the directory", holderPid);
    expect(alive(holder)).toBe(true);
    expect(holdersOf(home)).toEqual([holder]);

    // Served by the holder: had the command opened the directory itself, it would have left a
    // holder of its own (another pid) as it exited.
    const second = await runHatloop(["ls", "--json"], env);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual([]);
    expect(holderPid()).toBe(holder);

    // Nobody connected for the linger: it closes the directory and exits.
    await until("the holder closes the directory and exits", () => !existsSync(owner) && !alive(holder));
  });

  it("is shown by db status and stopped by db release; a process that is not a warm holder is left alone", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-warm-"));
    const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), HATLOOP_DATABASE__LINGER: "10m" };
    const status = async () => {
      const out = await runHatloop(["db", "status", "--json"], env);
      expect(out.code, out.stderr).toBe(0);
      return (JSON.parse(out.stdout) as { holder: { pid: number; warmForMs?: number } | null }).holder;
    };
    expect(await status()).toBeNull();
    expect((await runHatloop(["ls"], env)).code).toBe(0);
    const holder = (await until("a warm holder takes the directory", status))!;
    expect(holder).toMatchObject({ warmForMs: 600_000 });
    expect(holdersOf(home)).toEqual([holder.pid]);
    expect((await runHatloop(["db", "status"], env)).stdout).toContain(`held by a warm holder: process ${holder.pid}`);

    const released = await runHatloop(["db", "release"], env);
    expect(released.code, released.stderr).toBe(0);
    await until("the released holder exits", () => !alive(holder.pid));
    expect(await status()).toBeNull();

    // Held by a process that is no warm holder (this one, as a run would): shown, not stopped.
    await withStore(home, async () => {
      expect(await status()).toEqual(expect.objectContaining({ pid: process.pid }));
      const refused = await runHatloop(["db", "release"], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`held by process ${process.pid}, which is not a warm holder`);
    });
  });

  it("is not left when the linger is 0", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-warm-"));
    const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), HATLOOP_DATABASE__LINGER: "0" };
    expect((await runHatloop(["ls"], env)).code).toBe(0);
    // A command starts its warm holder as it closes the directory, before it exits (db's router.ts):
    // none runs now, so none can take the directory later.
    expect(holdersOf(home)).toEqual([]);
    expect(existsSync(join(home, "pglite.lock"))).toBe(false);
  });
});
