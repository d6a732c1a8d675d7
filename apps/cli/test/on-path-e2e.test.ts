import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

// A newcomer's first hour: the README's way to put `hatloop` on the PATH, done for real into a fresh
// npm prefix and HOME (`npm link apps/cli` fails on npm 11), then `hatloop` run by name; and the
// hints a run prints name a command that works in the shell that started it, whether `hatloop` is
// on the PATH or the CLI was started as `node .../bin.js`.

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const bin = join(repoRoot, "apps/cli/dist/bin.js");
const version = (JSON.parse(readFileSync(join(repoRoot, "apps/cli/package.json"), "utf8")) as { version: string }).version;

function sh(command: string, env: Record<string, string>) {
  return spawnSync("sh", ["-c", command], { env, encoding: "utf8" });
}

/** A run stopped by its iteration budget, started by `command`; returns its hint and what it printed. */
function budgetPause(command: string, env: Record<string, string>) {
  const { root, repo } = makeRepo();
  const scenario = writeScenario(root, 2, 0);
  const ran = sh(
    `${command} run 'write the notes' --repo ${repo} --hat editor --model scripted:${scenario} --max-iterations 1 --plain`,
    env,
  );
  expect(ran.status, ran.stderr).toBe(3);
  const hint = /^ {3}continue with: (.+)$/m.exec(ran.stdout)?.[1];
  expect(hint, ran.stdout).toBeDefined();
  return hint!;
}

describe("hatloop on the PATH", () => {
  it("the README's command, into a fresh npm prefix: `hatloop` then runs by name from the PATH", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const scripts = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    // The README names the root script; it builds the CLI, then runs the linker this test runs.
    expect(readme).toContain("npx -y pnpm@10 link-hatloop");
    expect(readme).not.toContain("npm link");
    expect(scripts["link-hatloop"]).toMatch(
      /^tsc -b apps\/cli && node apps\/cli\/scripts\/bundle\.mjs && .*node apps\/cli\/scripts\/link\.mjs$/,
    );

    const root = mkdtempSync(join(tmpdir(), "hatloop-on-path-"));
    const prefix = join(root, "npm-global");
    const home = join(root, "home");
    const linked = spawnSync(process.execPath, [join(repoRoot, "apps/cli/scripts/link.mjs")], {
      env: { PATH: process.env.PATH, HOME: home, npm_config_prefix: prefix },
      encoding: "utf8",
    });
    expect(linked.status, linked.stderr).toBe(0);
    const launcher = join(prefix, "bin", "hatloop");
    expect(linked.stdout).toBe(
      `hatloop is ${launcher}\n${join(prefix, "bin")} is not on your PATH: add it (export PATH="${join(prefix, "bin")}${delimiter}$PATH")\n`,
    );

    // Found by name on a PATH that holds only npm's bin directory and the shell's.
    const path = [join(prefix, "bin"), "/usr/bin", "/bin"].join(delimiter);
    const env = {
      PATH: path,
      HOME: home,
      HATLOOP_HOME: join(root, "hatloop"),
      HATLOOP_CONFIG: join(root, "none.json"),
      HATLOOP_DATABASE__LINGER: "0",
    };
    expect(sh("command -v hatloop", env).stdout.trim()).toBe(launcher);
    const ran = sh("hatloop --version", env);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toBe(`${version}\n`);

    // Its hints name it by that name, and the hint runs as printed.
    const hint = budgetPause("hatloop", env);
    expect(hint).toMatch(/^hatloop resume [0-9a-f]{8} --max-iterations \d+$/);
    const resumed = sh(`${hint} --plain`, env);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/hatloop: completed/);
  });

  it("without it, the hints name the node command that started the CLI, and run as printed", () => {
    const root = mkdtempSync(join(tmpdir(), "hatloop-off-path-"));
    const env = {
      PATH: process.env.PATH!,
      HOME: root,
      HATLOOP_HOME: join(root, "hatloop"),
      HATLOOP_CONFIG: join(root, "none.json"),
      HATLOOP_DATABASE__LINGER: "0",
    };
    expect(sh("command -v hatloop", env).status).not.toBe(0);
    const hint = budgetPause(`node ${bin}`, env);
    expect(hint).toMatch(new RegExp(`^node ${bin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} resume [0-9a-f]{8} --max-iterations \\d+$`));
    const resumed = sh(`${hint} --plain`, env);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/hatloop: completed/);
  });
});
