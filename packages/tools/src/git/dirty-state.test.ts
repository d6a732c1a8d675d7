import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { git, isolateGit, tempRepo, writeFiles } from "../test-support/fixtures.js";
import { deleteRef, dirtyStateRef, hasRef, keepDirtyState } from "./dirty-state.js";

beforeAll(isolateGit);

const ref = dirtyStateRef("ab12cd34");

/** Throws away everything uncommitted, then applies the kept state as the user would. */
function restore(repo: string): void {
  git(repo, "reset", "--quiet", "--hard");
  git(repo, "clean", "-fdq");
  git(repo, "stash", "apply", "--quiet", ref);
}

describe("keepDirtyState", () => {
  it("keeps nothing for a clean checkout", async () => {
    const repo = tempRepo();
    expect(await keepDirtyState(repo, ref)).toBe(false);
    expect(await hasRef(repo, ref)).toBe(false);
  });

  it("keeps tracked changes, staged ones included, without touching the checkout or the stash list", async () => {
    const repo = tempRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    writeFiles(repo, { "a.txt": "a, edited\n", "b.txt": "b, staged\n" });
    git(repo, "add", "b.txt");
    const before = git(repo, "status", "--short");
    expect(await keepDirtyState(repo, ref)).toBe(true);
    expect(git(repo, "status", "--short")).toBe(before);
    expect(git(repo, "stash", "list")).toBe("");
    restore(repo);
    expect(readFileSync(path.join(repo, "a.txt"), "utf8")).toBe("a, edited\n");
    expect(readFileSync(path.join(repo, "b.txt"), "utf8")).toBe("b, staged\n");
  });

  it("keeps untracked files, alone or beside tracked changes, and the ref can be dropped", async () => {
    for (const tracked of [false, true]) {
      const repo = tempRepo({ "a.txt": "a\n", ".gitignore": "build/\n" });
      writeFiles(repo, { "notes/todo.md": "mine\n", "build/out.js": "ignored\n", ...(tracked ? { "a.txt": "a, edited\n" } : {}) });
      expect(await keepDirtyState(repo, ref)).toBe(true);
      restore(repo);
      expect(readFileSync(path.join(repo, "notes/todo.md"), "utf8")).toBe("mine\n");
      expect(readFileSync(path.join(repo, "a.txt"), "utf8")).toBe(tracked ? "a, edited\n" : "a\n");
      await deleteRef(repo, ref);
      expect(await hasRef(repo, ref)).toBe(false);
    }
  });
});
