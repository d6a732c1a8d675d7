import { beforeAll, describe, expect, it } from "vitest";
import { git, isolateGit, runTool, tempDir, tempRepo, toolContext, writeFiles } from "../test-support/fixtures.js";

beforeAll(isolateGit);

describe("git tools", () => {
  it("git_status shows the branch and changed files", async () => {
    const root = tempRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    expect((await runTool("git_status", {}, toolContext(root))).content).toBe("## main\n(working tree clean)");
    writeFiles(root, { "a.txt": "changed\n", "new/c.txt": "c\n" });
    git(root, "add", "b.txt");
    git(root, "rm", "--quiet", "b.txt");
    const result = await runTool("git_status", {}, toolContext(root));
    expect(result.content.split("\n")).toEqual(["## main", " M a.txt", "D  b.txt", "?? new/c.txt"]);
  });

  it("git_diff shows unstaged, staged, per-path and since-base diffs", async () => {
    const root = tempRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const base = git(root, "rev-parse", "HEAD");
    writeFiles(root, { "a.txt": "a2\n" });
    git(root, "commit", "--quiet", "-am", "change a");
    writeFiles(root, { "b.txt": "b2\n", "c.txt": "new\n" });

    const unstaged = await runTool("git_diff", {}, toolContext(root));
    expect(unstaged.content).toContain("+b2");
    expect(unstaged.content).not.toContain("+a2");
    expect(unstaged.content).toContain("Untracked files (not shown in the diff): c.txt");

    expect((await runTool("git_diff", { staged: true }, toolContext(root))).content).toBe("No differences.");
    const scoped = await runTool("git_diff", { path: "a.txt" }, toolContext(root));
    expect(scoped.content).toBe("No differences.");

    const sinceBase = await runTool("git_diff", { since_base: true }, toolContext(root), { baseCommit: base });
    expect(sinceBase.content).toContain("+a2");
    expect(sinceBase.content).toContain("+b2");

    const noBase = await runTool("git_diff", { since_base: true }, toolContext(root));
    expect(noBase).toEqual({ isError: true, content: "since_base is unavailable: this session has no recorded base commit" });
  });

  it("git_log lists recent commits, newest first", async () => {
    const root = tempRepo();
    writeFiles(root, { "x.txt": "x" });
    git(root, "add", "x.txt");
    git(root, "commit", "--quiet", "-m", "add x");
    const result = await runTool("git_log", { max: 5 }, toolContext(root));
    const lines = result.content.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^[0-9a-f]{7,} \d{4}-\d{2}-\d{2} Test Author: add x$/);
    expect(lines[1]).toMatch(/Test Author: initial$/);
  });

  it("report clear errors outside a repository and for an empty one", async () => {
    const plain = tempDir();
    const status = await runTool("git_status", {}, toolContext(plain));
    expect(status.isError).toBe(true);
    expect(status.content).toMatch(/^git status failed: fatal: not a git repository/);
    git(plain, "init", "--quiet");
    expect((await runTool("git_log", {}, toolContext(plain))).content).toBe("No commits yet.");
  });
});
