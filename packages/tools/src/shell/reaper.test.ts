import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// A command hatloop started must not outlive hatloop, even when hatloop is killed with SIGKILL and
// can run no cleanup of its own: the watchdog kills the command's process group.

const dist = pathToFileURL(join(import.meta.dirname, "../../dist/index.js")).href;

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a condition (never for a time); false only if it never held within five minutes. */
async function until(check: () => boolean): Promise<boolean> {
  for (const end = Date.now() + 5 * 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return true;
  return check();
}

describe("commands after hatloop is killed", () => {
  it("are killed with their whole process group when hatloop dies by SIGKILL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-reaper-"));
    const script = `import { runShell } from ${JSON.stringify(dist)};
      runShell({ command: "echo $$ > pgid.txt; sleep 3000 & sleep 3000", cwd: ${JSON.stringify(dir)}, timeoutMs: 600000, headChars: 100, tailChars: 100 });
      setInterval(() => {}, 1000);`;
    const hatloop = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
    const pidFile = join(dir, "pgid.txt");
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")).toBe(true);
    const pgid = Number(readFileSync(pidFile, "utf8").trim());
    expect(groupAlive(pgid)).toBe(true);
    // Killed while the command runs (in its first milliseconds the group may not be registered yet).
    await new Promise((r) => setTimeout(r, 1_000));
    hatloop.kill("SIGKILL");
    expect(await until(() => !groupAlive(pgid))).toBe(true); // it never ends by itself in that time
  });
});
