import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HATLOOP, HUNG_MS } from "./support/hatloop.js";

// The built binary, as a user runs it. One HATLOOP_HOME for the file: the first command creates the
// embedded database, the others reopen it.
const bin = new URL("../dist/bin.js", import.meta.url).pathname;
let home: string;

function hatloop(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: home, HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), ...env },
    timeout: HUNG_MS,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "hatloop-cli-"));
});

describe("hatloop binary", () => {
  it("prints help and version with exit code 0", () => {
    const help = hatloop(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: hatloop");
    expect(help.stdout).toContain(
      "Exit codes: 0 ok, 1 failure, 2 usage or config error, 3 stopped by a budget, 4 waiting for an answer, 75 database unreachable, 130 interrupted.",
    );
    const version = hatloop(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n" });
  });

  it("shows a friendly empty state, and [] as JSON", () => {
    const plain = hatloop(["ls"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout.startsWith(`No sessions yet. Start one with: ${HATLOOP} run`)).toBe(true);
    const json = hatloop(["ls", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it("answers usage errors with one line and exit code 2", () => {
    for (const args of [["bogus"], ["ls", "--bogus"], ["show"], ["ls", "--limit", "many"]]) {
      const r = hatloop(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.stderr).toMatch(/^hatloop: /);
    }
  });

  it("answers an invalid config with exit code 2 naming the key", () => {
    const r = hatloop(["ls"], { HATLOOP_CHECKPOINT__INTERVAL: "0" });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "hatloop: invalid config: checkpoint.interval (from HATLOOP_CHECKPOINT__INTERVAL): Too small: expected number to be >0\n",
    );
  });

  it("answers an unknown session with exit code 1", () => {
    const r = hatloop(["show", "deadbeef"]);
    expect(r).toMatchObject({ code: 1, stderr: `hatloop: no session matches "deadbeef" (see ${HATLOOP} ls)\n` });
  });

  it("answers an unreachable database with one line, its cause and exit code 75", () => {
    const r = hatloop(["ls", "--db", "postgres://nobody:pw@127.0.0.1:1/none"]);
    expect(r).toMatchObject({ code: 75, stderr: "hatloop: database unreachable at 127.0.0.1:1 (connection refused)\n" });
  });

  it("prints where the data lives and migrates idempotently", () => {
    expect(hatloop(["db", "path"]).stdout).toBe(`${join(home, "pglite")}\n`);
    expect(hatloop(["db", "path"], { DATABASE_URL: "postgres://u:secret@db:5432/h" }).stdout).toBe(
      "postgres://u:[REDACTED:url-password]@db:5432/h\n",
    );
    for (let i = 0; i < 2; i++)
      expect(hatloop(["db", "migrate"])).toMatchObject({ code: 0, stdout: `database at ${join(home, "pglite")} is up to date\n` });
  });
});
