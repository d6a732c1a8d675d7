import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HUNG_MS } from "./support/hatloop.js";

// Bad input that used to succeed silently, hang or point the user the wrong way: each answer is one
// line, a documented exit code, without retrying, and nothing is created.

const bin = new URL("../dist/bin.js", import.meta.url).pathname;

function hatloop(args: string[], env: Record<string, string>, cwd?: string) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...env },
    timeout: HUNG_MS,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function freshHome() {
  const home = mkdtempSync(join(tmpdir(), "hatloop-bad-"));
  return { home, env: { HOME: home, HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") } };
}

function expectOneLine(r: { stderr: string }) {
  expect(r.stderr).toMatch(/^hatloop: [^\n]+\n$/);
}

describe("database location", () => {
  it("refuses an unknown URL scheme as a usage error and creates nothing", () => {
    const { home, env } = freshHome();
    const r = hatloop(["--db", "mysql://x/y", "ls"], env, home);
    expect(r.code).toBe(2);
    expectOneLine(r);
    expect(r.stderr).toMatch(/unsupported database URL "mysql:\/\/x\/y".*postgres:\/\//);
    expect(readdirSync(home)).toEqual([]);
    expect(hatloop(["ls"], { ...env, DATABASE_URL: "sqlite:data.db" }, home).code).toBe(2);
    expect(readdirSync(home)).toEqual([]);
  });

  it("answers an unusable data directory at once with exit code 2", () => {
    const { home, env } = freshHome();
    const file = join(home, "a-file");
    writeFileSync(file, "");
    for (const where of ["/proc/hatloop", file]) {
      const r = hatloop(["ls"], { ...env, HATLOOP_HOME: where });
      expect(r.code, where).toBe(2);
      expectOneLine(r);
      expect(r.stderr).toMatch(/^hatloop: cannot use the data directory .*(HATLOOP_HOME|--db)/);
    }
  });
});

describe("a directory that is not a git repository", () => {
  it("gets the same answer with and without --in-place, telling how to make one", () => {
    const { env } = freshHome();
    const plain = mkdtempSync(join(tmpdir(), "hatloop-plain-"));
    const answers = [
      ["run", "do it", "--repo", plain],
      ["run", "do it", "--repo", plain, "--in-place"],
    ].map((args) => hatloop([...args, "--model", "claude-sonnet-5-5"], { ...env, ANTHROPIC_API_KEY: "sk-test" }));
    for (const r of answers) {
      expect(r.code).toBe(2);
      expectOneLine(r);
      expect(r.stderr).toContain(`${plain} is not a git repository`);
      expect(r.stderr).toContain("git init && git add -A && git commit");
      expect(r.stderr).not.toContain("--in-place");
    }
    expect(answers[0]!.stderr).toBe(answers[1]!.stderr);
    expect(existsSync(join(plain, ".git"))).toBe(false);
  });
});
