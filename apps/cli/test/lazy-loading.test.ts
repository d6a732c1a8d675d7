import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// `hatloop --help` and `--version` load commander, the CLI's entry modules and the commands'
// definitions, nothing else: every command's action module (and the database, SDK, React or Ink it
// brings) is imported when that command runs.

const bin = new URL("../dist/bin.js", import.meta.url).pathname;
const recorder = new URL("./support/record-imports.mjs", import.meta.url).pathname;
/** esbuild's record of which source modules went into which chunk of dist/ (scripts/bundle.mjs). */
const meta = JSON.parse(readFileSync(new URL("../dist/meta.json", import.meta.url), "utf8")) as {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
};

/** A module as the tests name it: `out/...` for the CLI's own, the package path for a dependency. */
const named = (path: string) => path.replace(/^.*\/node_modules\/(?!\.pnpm)/, "").replace(/^.*\/apps\/cli\//, "");

/** The source modules a `hatloop` process loads: those in the chunks it imports, and any file outside them. */
function modulesLoadedBy(args: string[], status = 0, env: Record<string, string> = {}): string[] {
  const file = join(mkdtempSync(join(tmpdir(), "hatloop-imports-")), "imports");
  const ran = spawnSync(process.execPath, ["--import", recorder, bin, ...args], {
    env: { PATH: process.env.PATH, RECORD_IMPORTS: file, ...env },
    encoding: "utf8",
  });
  expect(ran.status, ran.stderr).toBe(status);
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

/** What every invocation loads: the entry modules, the commands' definitions and their option parsers. */
const ENTRY_MODULES = [
  "out/bin.js",
  "out/main.js",
  "out/errors.js",
  "out/version.js",
  "out/options.js",
  "out/commands/index.js",
  "out/commands/fleet-commands.js",
  "out/commands/lazy.js",
  "../../packages/core/dist/light.js",
];

describe("what --help and --version load", () => {
  it.each(["--help", "--version", "help", "db --help"])("hatloop %s loads commander and the entry modules only", (args) => {
    const loaded = modulesLoadedBy(args.split(" "));
    expect(loaded.filter((m) => !m.startsWith("commander/")).sort()).toEqual([...ENTRY_MODULES].sort());
  });

  it("a usage error loads no command's action", () => {
    const loaded = modulesLoadedBy(["ls", "--limit", "0"], 2);
    expect(loaded.filter((m) => m.startsWith("out/commands/")).sort()).toEqual(
      ENTRY_MODULES.filter((m) => m.startsWith("out/commands/")).sort(),
    );
  });

  it("a command loads its own action's module, not the others'", () => {
    const loaded = modulesLoadedBy(["db", "path"]);
    expect(loaded).toContain("out/commands/db.js");
    expect(loaded.filter((m) => m.startsWith("out/commands/")).sort()).toEqual([
      "out/commands/db.js",
      "out/commands/fleet-commands.js",
      "out/commands/index.js",
      "out/commands/lazy.js",
    ]);
    expect(loaded.some((m) => /^(ink|react|@anthropic-ai)\//.test(m))).toBe(false);
  });

  it("only serve loads the web console (Hono, its pages, htmx)", () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-imports-home-"));
    const loaded = modulesLoadedBy(["ls"], 0, { HATLOOP_HOME: home, HATLOOP_DATABASE__LINGER: "0" });
    expect(loaded).toContain("out/commands/ls.js");
    expect(loaded.filter((m) => /^(hono|htmx|@hono)|packages\/console\/|out\/serve\//.test(m))).toEqual([]);
  });

  it("ls with nobody holding the embedded database loads neither the database nor drizzle", () => {
    const env = { HATLOOP_HOME: mkdtempSync(join(tmpdir(), "hatloop-imports-home-")), HATLOOP_DATABASE__LINGER: "0" };
    // The first opens the database (and leaves its sessions at rest as it closes it); the second reads them.
    expect(modulesLoadedBy(["ls"], 0, env)).toContain("@electric-sql/pglite/dist/index.js");
    const loaded = modulesLoadedBy(["ls"], 0, env);
    expect(loaded).toContain("../../db/dist/at-rest.js");
    expect(loaded.filter((m) => /^(drizzle-orm|@electric-sql|postgres)\/|db\/dist\/(index|open|store)\.js/.test(m))).toEqual([]);
  });
});
