import type { GateReport, ToolContext, ToolResult, ToolServices } from "@hatloop/core";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { createToolset, type ToolName } from "../toolset.js";

const created: string[] = [];

/** Git that behaves the same on every machine: a known identity, no user or system config. */
export function isolateGit(): void {
  const emptyConfig = path.join(os.tmpdir(), "hatloop-test-empty-gitconfig");
  writeFileSync(emptyConfig, "");
  Object.assign(process.env, {
    GIT_CONFIG_GLOBAL: emptyConfig,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.com",
    GIT_COMMITTER_NAME: "Test Author",
    GIT_COMMITTER_EMAIL: "author@example.com",
  });
}

/** A fresh real directory, removed after the test. */
export function tempDir(prefix = "hatloop-tools-"): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

/** A repository with one commit holding `files`. */
export function tempRepo(files: Record<string, string> = { "README.md": "# demo\n" }): string {
  const dir = tempDir("hatloop-repo-");
  git(dir, "init", "--quiet", "--initial-branch=main");
  writeFiles(dir, files);
  git(dir, "add", "--all");
  git(dir, "commit", "--quiet", "-m", "initial");
  return dir;
}

const noGates: GateReport = { passed: true, checks: [] };

export function toolContext(
  worktree: string,
  overrides: Omit<Partial<ToolContext>, "services"> & { services?: Partial<ToolServices> } = {},
): ToolContext {
  const { services, ...rest } = overrides;
  return {
    worktree,
    sessionId: "session-test",
    iteration: 1,
    hat: "creator",
    signal: new AbortController().signal,
    ...rest,
    services: { recall: async () => [], runGates: async () => noGates, ...services },
  };
}

/** Runs one tool of a default toolset. */
export async function runTool(
  name: ToolName,
  input: Record<string, unknown>,
  context: ToolContext,
  options: Parameters<typeof createToolset>[0] = {},
): Promise<ToolResult> {
  const tool = createToolset(options).find((t) => t.spec.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.run(input, context);
}
