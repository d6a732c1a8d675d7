import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { invocation } from "./invocation.js";

// The command the CLI's hints name: the one that works in the shell that started it.

/** A directory holding an executable `name` (and node's own directory, so `node` is found). */
function pathWith(...names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-path-"));
  for (const name of names) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), "#!/bin/sh\n");
    chmodSync(join(dir, name), 0o755);
  }
  return `${dir}:${dirname(process.execPath)}`;
}

const bin = "/src/hatloop/apps/cli/dist/bin.js";
const started = (env: NodeJS.ProcessEnv, script = bin) => invocation({ env, argv: [process.execPath, script, "run"], platform: "linux" });

describe("the command the hints name", () => {
  it("is hatloop when that name is on the PATH, however this process was started", () => {
    expect(started({ PATH: pathWith("hatloop") })).toBe("hatloop");
  });

  it("is not a hatloop that cannot be run", () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-path-"));
    writeFileSync(join(dir, "hatloop"), "not executable\n");
    expect(started({ PATH: `${dir}:${dirname(process.execPath)}` })).toBe(`node ${bin}`);
  });

  it("is the node command that started it when hatloop is not on the PATH", () => {
    expect(started({ PATH: pathWith() })).toBe(`node ${bin}`);
    expect(started({ PATH: pathWith() }, "/home/a b/hatloop/apps/cli/dist/bin.js")).toBe('node "/home/a b/hatloop/apps/cli/dist/bin.js"');
    // No node on the PATH either: the node that runs, by its path.
    expect(started({ PATH: "/nonexistent" })).toBe(`${process.execPath} ${bin}`);
  });

  it("is the repository's pnpm script when one of them started it: through npx as the README says, or an installed pnpm", () => {
    const script = { PATH: pathWith(), npm_lifecycle_event: "demo", npm_package_name: "hatloop-monorepo" };
    expect(started({ ...script, npm_execpath: "/home/a/.npm/_npx/a1a38f5f0f780954/node_modules/pnpm/bin/pnpm.cjs" })).toBe(
      "npx -y pnpm@10 hatloop",
    );
    expect(started({ ...script, npm_execpath: "/usr/lib/node_modules/pnpm/bin/pnpm.cjs" })).toBe("pnpm hatloop");
    // Another package's script, or npm's: the node command.
    expect(started({ ...script, npm_package_name: "my-app", npm_execpath: "/usr/lib/node_modules/pnpm/bin/pnpm.cjs" })).toBe(`node ${bin}`);
    expect(started({ ...script, npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js" })).toBe(`node ${bin}`);
  });

  it("finds hatloop.cmd on Windows through PATHEXT", () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-path-"));
    writeFileSync(join(dir, "hatloop.cmd"), "@echo off\r\n");
    expect(invocation({ env: { Path: dir, PATHEXT: ".COM;.EXE;.CMD" }, argv: ["node.exe", bin], platform: "win32" })).toBe("hatloop");
  });
});
