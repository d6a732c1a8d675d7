import { access, readFile } from "node:fs/promises";
import path from "node:path";

// Which commands are the project's quality gates, from the files in its root (dex's table).
// The first project marker found decides; Makefile targets fill the slots it leaves empty.

export type GateName = "test" | "lint" | "build";
export type GateCommands = Partial<Record<GateName, string>>;

export const GATE_ORDER: readonly GateName[] = ["test", "lint", "build"];

type Detector = (dir: string) => Promise<GateCommands | undefined>;

const DETECTORS: Detector[] = [detectGo, detectNode, detectRust, detectPython];

export async function detectGateCommands(dir: string): Promise<GateCommands> {
  let commands: GateCommands = {};
  for (const detect of DETECTORS) {
    const found = await detect(dir);
    if (found) {
      commands = found;
      break;
    }
  }
  const make = await detectMake(dir);
  for (const name of GATE_ORDER) commands[name] ??= make[name];
  return withoutEmpty(commands);
}

/** Configured commands win per slot; detection fills the rest unless it is turned off. */
export async function resolveGateCommands(dir: string, configured: GateCommands & { detect?: boolean }): Promise<GateCommands> {
  const detected = configured.detect === false ? {} : await detectGateCommands(dir);
  const out: GateCommands = {};
  for (const name of GATE_ORDER) {
    const command = configured[name] ?? detected[name];
    if (command) out[name] = command;
  }
  return out;
}

const NPM_DEFAULT_TEST = /no test specified/;

async function detectNode(dir: string): Promise<GateCommands | undefined> {
  const pkg = await readJson(path.join(dir, "package.json"));
  if (pkg === undefined) return undefined;
  const scripts = isRecord(pkg) && isRecord(pkg.scripts) ? pkg.scripts : {};
  const runner = await nodeRunner(dir, isRecord(pkg) ? pkg.packageManager : undefined);
  const has = (name: string) => typeof scripts[name] === "string" && scripts[name].trim().length > 0;
  const commands: GateCommands = {};
  if (has("test") && !NPM_DEFAULT_TEST.test(scripts.test as string)) commands.test = runner.test;
  if (has("lint")) commands.lint = `${runner.run} lint`;
  if (has("build")) commands.build = `${runner.run} build`;
  return commands;
}

/** `bun test` is bun's own runner, not the script, hence `bun run test`. */
async function nodeRunner(dir: string, packageManager: unknown): Promise<{ test: string; run: string }> {
  const declared = typeof packageManager === "string" ? packageManager.split("@")[0] : undefined;
  const lock = (await exists(dir, "pnpm-lock.yaml"))
    ? "pnpm"
    : (await exists(dir, "yarn.lock"))
      ? "yarn"
      : (await exists(dir, "bun.lockb")) || (await exists(dir, "bun.lock"))
        ? "bun"
        : (await exists(dir, "package-lock.json"))
          ? "npm"
          : undefined;
  switch (lock ?? declared) {
    case "pnpm":
      return { test: "pnpm test", run: "pnpm run" };
    case "yarn":
      return { test: "yarn test", run: "yarn run" };
    case "bun":
      return { test: "bun run test", run: "bun run" };
    default:
      return { test: "npm test", run: "npm run" };
  }
}

async function detectGo(dir: string): Promise<GateCommands | undefined> {
  if (!(await exists(dir, "go.mod"))) return undefined;
  const golangci = (await exists(dir, ".golangci.yml")) || (await exists(dir, ".golangci.yaml"));
  return { test: "go test ./...", lint: golangci ? "golangci-lint run" : "go vet ./...", build: "go build ./..." };
}

async function detectRust(dir: string): Promise<GateCommands | undefined> {
  if (!(await exists(dir, "Cargo.toml"))) return undefined;
  return { test: "cargo test", lint: "cargo clippy", build: "cargo build" };
}

async function detectPython(dir: string): Promise<GateCommands | undefined> {
  const pyproject = await readText(path.join(dir, "pyproject.toml"));
  const hasSetup = await exists(dir, "setup.py");
  if (pyproject === undefined && !hasSetup) return undefined;
  const config = `${pyproject ?? ""}\n${(await readText(path.join(dir, "setup.cfg"))) ?? ""}`;
  const commands: GateCommands = {
    test: (await exists(dir, "tox.ini")) && !/\[tool\.pytest/.test(config) ? "tox" : "python3 -m pytest",
  };
  // Lint only with a linter the project has configured; guessing one would fail for no reason.
  if (/\[tool\.ruff/.test(config) || (await exists(dir, "ruff.toml")) || (await exists(dir, ".ruff.toml"))) {
    commands.lint = "ruff check .";
  } else if (/\[flake8\]/.test(config) || (await exists(dir, ".flake8"))) {
    commands.lint = "flake8";
  } else if (/\[tool\.mypy\]|\[mypy\]/.test(config) || (await exists(dir, "mypy.ini"))) {
    commands.lint = "mypy .";
  }
  return commands;
}

async function detectMake(dir: string): Promise<GateCommands> {
  const makefile = (await readText(path.join(dir, "Makefile"))) ?? (await readText(path.join(dir, "makefile")));
  if (makefile === undefined) return {};
  const commands: GateCommands = {};
  for (const name of GATE_ORDER) {
    if (new RegExp(`^${name}\\s*:(?!=)`, "m").test(makefile)) commands[name] = `make ${name}`;
  }
  return commands;
}

function withoutEmpty(commands: GateCommands): GateCommands {
  const out: GateCommands = {};
  for (const name of GATE_ORDER) if (commands[name]) out[name] = commands[name];
  return out;
}

async function exists(dir: string, name: string): Promise<boolean> {
  return access(path.join(dir, name)).then(
    () => true,
    () => false,
  );
}

async function readText(file: string): Promise<string | undefined> {
  return readFile(file, "utf8").catch(() => undefined);
}

async function readJson(file: string): Promise<unknown> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {}; // a broken package.json still marks a Node project; it just has no scripts
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
