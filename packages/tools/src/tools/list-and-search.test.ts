import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { git, isolateGit, runTool, tempDir, tempRepo, toolContext, writeFiles } from "../test-support/fixtures.js";

beforeAll(isolateGit);

function projectRepo(): string {
  const root = tempRepo({
    ".gitignore": "dist/\n*.log\n",
    "src/index.ts": "export const answer = 42;\n// TODO: tidy\n",
    "src/util/strings.ts": "export function shout(s: string) {\n  return s.toUpperCase();\n}\n",
    "README.md": "# Demo\nSee src/index.ts. todo later\n",
  });
  writeFiles(root, {
    "dist/index.js": "const answer = 42; // TODO",
    "debug.log": "TODO",
    "node_modules/pkg/index.js": "TODO",
    "notes/new.md": "untracked TODO\n",
  });
  return root;
}

describe("list_files", () => {
  it("lists tracked and untracked files, respecting .gitignore and hiding node_modules", async () => {
    const root = projectRepo();
    const result = await runTool("list_files", {}, toolContext(root));
    expect(result.content.split("\n")).toEqual([".gitignore", "README.md", "notes/new.md", "src/index.ts", "src/util/strings.ts"]);
  });

  it("filters by directory and glob, and caps with a note", async () => {
    const root = projectRepo();
    expect((await runTool("list_files", { pattern: "*.ts" }, toolContext(root))).content).toBe("src/index.ts\nsrc/util/strings.ts");
    expect((await runTool("list_files", { path: "src", pattern: "util/**" }, toolContext(root))).content).toBe("src/util/strings.ts");
    expect((await runTool("list_files", { pattern: "src/**/*.ts" }, toolContext(root))).content).toBe("src/index.ts\nsrc/util/strings.ts");
    const capped = await runTool("list_files", { max: 2 }, toolContext(root));
    expect(capped.content).toBe(".gitignore\nREADME.md\n[... and 3 more; narrow the listing with path or pattern]");
  });

  it("leaves out files deleted from the working tree", async () => {
    const root = projectRepo();
    git(root, "rm", "--quiet", "--cached", "README.md");
    git(root, "checkout", "--quiet", "HEAD", "--", "README.md");
    git(root, "rm", "--quiet", "src/index.ts");
    const result = await runTool("list_files", { path: "src" }, toolContext(root));
    expect(result.content).toBe("src/util/strings.ts");
  });

  it("walks a directory that is not a repository, skipping node_modules and .git", async () => {
    const root = tempDir();
    writeFiles(root, { "a.txt": "", "sub/b.txt": "", "node_modules/x/y.js": "", ".git/HEAD": "" });
    expect((await runTool("list_files", {}, toolContext(root))).content).toBe("a.txt\nsub/b.txt");
  });

  it("refuses a directory outside the worktree", async () => {
    const root = projectRepo();
    expect(await runTool("list_files", { path: ".." }, toolContext(root))).toEqual({
      isError: true,
      content: 'path ".." is outside the worktree',
    });
  });
});

describe("search", () => {
  it("finds matching lines with path and line number, respecting .gitignore", async () => {
    const root = projectRepo();
    const result = await runTool("search", { pattern: "TODO" }, toolContext(root));
    expect(result.content.split("\n")).toEqual(["notes/new.md:1: untracked TODO", "src/index.ts:2: // TODO: tidy"]);
  });

  it("supports case-insensitive regexes, glob and path filters", async () => {
    const root = projectRepo();
    const ci = await runTool("search", { pattern: "to+do", case_insensitive: true, glob: "*.md" }, toolContext(root));
    expect(ci.content).toBe("README.md:2: See src/index.ts. todo later\nnotes/new.md:1: untracked TODO");
    const scoped = await runTool("search", { pattern: "\\bshout\\(", path: "src/util" }, toolContext(root));
    expect(scoped.content).toBe("src/util/strings.ts:1: export function shout(s: string) {");
  });

  it("caps results and says how many more there are", async () => {
    const root = tempRepo({ "many.txt": Array.from({ length: 30 }, (_, i) => `hit ${i}`).join("\n") });
    const result = await runTool("search", { pattern: "hit", max_results: 5 }, toolContext(root));
    const lines = result.content.split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe("[... 25 more matches not shown; narrow with path or glob, or raise max_results]");
  });

  it("reports no matches, invalid regexes and does not follow symlinks out", async () => {
    const root = projectRepo();
    const outside = tempDir();
    writeFiles(outside, { "secret.txt": "TOKEN=abc" });
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "leak.txt"));
    mkdirSync(path.join(root, "empty"));
    expect((await runTool("search", { pattern: "TOKEN" }, toolContext(root))).content).toMatch(/^No matches for \/TOKEN\//);
    const bad = await runTool("search", { pattern: "(" }, toolContext(root));
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/^invalid regular expression/);
  });
});
