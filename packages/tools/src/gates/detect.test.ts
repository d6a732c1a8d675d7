import { describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../test-support/fixtures.js";
import { detectGateCommands, resolveGateCommands } from "./detect.js";

function project(files: Record<string, string>): string {
  const dir = tempDir();
  writeFiles(dir, files);
  return dir;
}

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) => JSON.stringify({ name: "p", scripts, ...extra });

describe("detectGateCommands", () => {
  it("uses package.json scripts with npm by default", async () => {
    const dir = project({ "package.json": pkg({ test: "vitest run", lint: "eslint .", build: "tsc" }) });
    expect(await detectGateCommands(dir)).toEqual({ test: "npm test", lint: "npm run lint", build: "npm run build" });
  });

  it("skips npm's placeholder test script and missing scripts", async () => {
    const dir = project({ "package.json": pkg({ test: 'echo "Error: no test specified" && exit 1', build: "tsc" }) });
    expect(await detectGateCommands(dir)).toEqual({ build: "npm run build" });
  });

  it.each([
    ["pnpm-lock.yaml", { test: "pnpm test", lint: "pnpm run lint" }],
    ["yarn.lock", { test: "yarn test", lint: "yarn run lint" }],
    ["bun.lockb", { test: "bun run test", lint: "bun run lint" }],
    ["package-lock.json", { test: "npm test", lint: "npm run lint" }],
  ])("lets %s pick the package manager", async (lockfile, expected) => {
    const dir = project({ "package.json": pkg({ test: "x", lint: "y" }), [lockfile]: "" });
    expect(await detectGateCommands(dir)).toEqual(expected);
  });

  it("honours the packageManager field when there is no lockfile", async () => {
    const dir = project({ "package.json": pkg({ test: "x" }, { packageManager: "pnpm@10.0.0" }) });
    expect(await detectGateCommands(dir)).toEqual({ test: "pnpm test" });
  });

  it("detects Go, Rust and Python projects", async () => {
    expect(await detectGateCommands(project({ "go.mod": "module x\n" }))).toEqual({
      test: "go test ./...",
      lint: "go vet ./...",
      build: "go build ./...",
    });
    expect(await detectGateCommands(project({ "Cargo.toml": "[package]\n" }))).toEqual({
      test: "cargo test",
      lint: "cargo clippy",
      build: "cargo build",
    });
    expect(await detectGateCommands(project({ "pyproject.toml": "[tool.ruff]\nline-length = 100\n" }))).toEqual({
      test: "python3 -m pytest",
      lint: "ruff check .",
    });
    expect(await detectGateCommands(project({ "setup.py": "", "tox.ini": "" }))).toEqual({ test: "tox" });
  });

  it("reads Makefile targets, also to fill what the project marker leaves empty", async () => {
    const makefile = "VAR := 1\ntest:\n\tgo test\nlint: deps\n\techo lint\n";
    expect(await detectGateCommands(project({ Makefile: makefile }))).toEqual({ test: "make test", lint: "make lint" });
    const mixed = project({ "package.json": pkg({ test: "vitest" }), Makefile: "build:\n\tdocker build .\n" });
    expect(await detectGateCommands(mixed)).toEqual({ test: "npm test", build: "make build" });
  });

  it("returns nothing for an unknown project", async () => {
    expect(await detectGateCommands(project({ "README.md": "hi" }))).toEqual({});
  });
});

describe("resolveGateCommands", () => {
  it("prefers configured commands and can turn detection off", async () => {
    const dir = project({ "package.json": pkg({ test: "x", lint: "y" }) });
    expect(await resolveGateCommands(dir, { test: "make check" })).toEqual({ test: "make check", lint: "npm run lint" });
    expect(await resolveGateCommands(dir, { build: "tsc", detect: false })).toEqual({ build: "tsc" });
  });
});
