import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A small git repository with a passing `npm test`, in a fresh temp dir (with a file beside it). */
export function makeRepo(files: Record<string, string> = {}): { root: string; repo: string } {
  const root = mkdtempSync(join(tmpdir(), "hatloop-e2e-"));
  const repo = join(root, "app");
  const all: Record<string, string> = {
    "package.json": JSON.stringify({ name: "app", private: true, type: "module", scripts: { test: "node --test test/" } }),
    "src/value.js": "export const value = 1;\n",
    "test/value.test.js":
      'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { value } from "../src/value.js";\ntest("value", () => assert.equal(value, 1));\n',
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(join(repo, path, ".."), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  writeFileSync(join(root, "outside.txt"), "TOP-SECRET-OUTSIDE-THE-WORKTREE\n");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], {
      cwd: repo,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  return { root, repo };
}
