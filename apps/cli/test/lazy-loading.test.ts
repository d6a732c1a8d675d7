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
/** esbuild's record of which source modules went into which chunk of dist/ (scripts/bundle.mjs). */
const meta = JSON.parse(readFileSync(new URL("../dist/meta.json", import.meta.url), "utf8")) as {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
};

/** A module as the tests name it: `out/...` for the CLI's own, the package path for a dependency. */
const named = (path: string) => path.replace(/^.*\/node_modules\/(?!\.pnpm)/, "").replace(/^.*\/apps\/cli\//, "");

/** The source modules a `hatloop` process loads: those in the chunks it imports, and any file outside them. */
function modulesLoadedBy(args: string[]): string[] {
  const file = join(mkdtempSync(join(tmpdir(), "hatloop-imports-")), "imports");
  const ran = spawnSync(process.execPath, ["--import", recorder, bin, ...args], {
    env: { PATH: process.env.PATH, RECORD_IMPORTS: file },
    encoding: "utf8",
  });
  expect(ran.status, ran.stderr).toBe(0);
  const urls = readFileSync(file, "utf8").trim().split("\n");
  const modules = urls
    .filter((u) => u.startsWith("file:"))
    .flatMap((u) => {
      const chunk = /\/apps\/cli\/(dist\/[^/]+\.js)$/.exec(u)?.[1];
      const inputs = chunk === undefined ? undefined : meta.outputs[chunk]?.inputs;
      return inputs === undefined ? [named(u)] : Object.keys(inputs).map(named);
    });
  return [...new Set(modules)];
}

describe("what --help and --version load", () => {
  it.each([["--help"], ["--version"], ["help"]])("hatloop %s loads commander and the entry modules only", (arg) => {
    const loaded = modulesLoadedBy([arg]);
    expect(loaded.filter((m) => !m.startsWith("commander/")).sort()).toEqual(
      ["out/bin.js", "out/commands/index.js", "out/errors.js", "out/main.js", "out/version.js"].sort(),
    );
  });

  it("a command loads its own module, not the others'", () => {
    const loaded = modulesLoadedBy(["db", "--help"]);
    expect(loaded).toContain("out/commands/db.js");
    expect(loaded.filter((m) => m.startsWith("out/commands/")).sort()).toEqual(["out/commands/db.js", "out/commands/index.js"]);
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
