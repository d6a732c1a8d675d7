import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/main.js";

// `hatloop --help` and `--version` load commander and the CLI's entry modules, nothing else: every
// command's module (and the database, SDK, React or Ink it brings) is imported when that command runs.

const bin = new URL("../dist/bin.js", import.meta.url).pathname;
const recorder = new URL("./support/record-imports.mjs", import.meta.url).pathname;

/** The modules a `hatloop` process loads, as paths under the repository or package names. */
function modulesLoadedBy(args: string[]): string[] {
  const file = join(mkdtempSync(join(tmpdir(), "hatloop-imports-")), "imports");
  const ran = spawnSync(process.execPath, ["--import", recorder, bin, ...args], {
    env: { PATH: process.env.PATH, RECORD_IMPORTS: file },
    encoding: "utf8",
  });
  expect(ran.status, ran.stderr).toBe(0);
  const urls = readFileSync(file, "utf8").trim().split("\n");
  return [
    ...new Set(
      urls.filter((u) => u.startsWith("file:")).map((u) => u.replace(/^.*\/node_modules\/(?!\.pnpm)/, "").replace(/^.*\/apps\/cli\//, "")),
    ),
  ];
}

describe("what --help and --version load", () => {
  it.each([["--help"], ["--version"], ["help"]])("hatloop %s loads commander and the entry modules only", (arg) => {
    const loaded = modulesLoadedBy([arg]);
    expect(loaded.filter((m) => !m.startsWith("commander/")).sort()).toEqual(
      ["dist/bin.js", "dist/commands/index.js", "dist/errors.js", "dist/main.js", "dist/version.js"].sort(),
    );
  });

  it("a command loads its own module, not the others'", () => {
    const loaded = modulesLoadedBy(["db", "--help"]);
    expect(loaded).toContain("dist/commands/db.js");
    expect(loaded.filter((m) => m.startsWith("dist/commands/"))).toEqual(["dist/commands/index.js", "dist/commands/db.js"]);
    expect(loaded.some((m) => /^(ink|react|@anthropic-ai)\//.test(m))).toBe(false);
  });
});

describe("the help lists every command as its module defines it", () => {
  it("top-level help is the same whether the commands are loaded or summarised", async () => {
    const summarised = await buildProgram(["node", "hatloop", "--help"]);
    const loaded = await buildProgram("*");
    expect(summarised.helpInformation()).toBe(loaded.helpInformation());
    expect(summarised.commands.map((c) => c.name())).toEqual(loaded.commands.map((c) => c.name()));
  });
});
