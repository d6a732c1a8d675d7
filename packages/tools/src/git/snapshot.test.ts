import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { git, isolateGit, tempRepo, writeFiles } from "../test-support/fixtures.js";
import { headTree, restoreSnapshot, snapshotCommit, worktreeTree } from "./snapshot.js";

beforeAll(isolateGit);

describe("worktree snapshots", () => {
  it("keep edits, new untracked files and deletions without touching the index or HEAD, and restore them on a clean checkout", async () => {
    const repo = tempRepo({ "a.txt": "a\n", "gone.txt": "bye\n", ".gitignore": "build/\n" });
    const head = git(repo, "rev-parse", "HEAD");
    expect(await worktreeTree(repo)).toBe(await headTree(repo));

    writeFiles(repo, { "a.txt": "a, edited\n", "notes/new.txt": "new\n", "build/out.bin": "ignored\n" });
    rmSync(path.join(repo, "gone.txt"));
    const status = git(repo, "status", "--short");
    const tree = await worktreeTree(repo);
    expect(tree).not.toBe(await headTree(repo));
    const commit = await snapshotCommit(repo, tree, "hatloop snapshot: iteration 2");
    expect(git(repo, "status", "--short")).toBe(status);
    expect(git(repo, "rev-parse", "HEAD")).toBe(head);
    expect(git(repo, "log", "-1", "--format=%P%n%s", commit)).toBe(`${head}\nhatloop snapshot: iteration 2`);

    // The next runner's worktree: the checkpoint's tree, then the snapshot's files over it.
    git(repo, "reset", "--quiet", "--hard");
    git(repo, "clean", "-fdq");
    await restoreSnapshot(repo, commit);
    expect(readFileSync(path.join(repo, "a.txt"), "utf8")).toBe("a, edited\n");
    expect(readFileSync(path.join(repo, "notes/new.txt"), "utf8")).toBe("new\n");
    expect(existsSync(path.join(repo, "gone.txt"))).toBe(false);
    expect(git(repo, "rev-parse", "HEAD")).toBe(head);
    expect(git(repo, "diff", "--cached", "--name-only")).toBe(""); // the next checkpoint commits it all
  });
});
