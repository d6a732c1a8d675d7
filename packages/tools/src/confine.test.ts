import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { confinePath } from "./confine.js";
import { tempDir } from "./test-support/fixtures.js";

describe("confinePath", () => {
  it("resolves relative paths inside the worktree", async () => {
    const root = tempDir();
    await expect(confinePath(root, "src/a.ts")).resolves.toEqual({ absolute: path.join(root, "src/a.ts"), relative: "src/a.ts" });
    await expect(confinePath(root, "")).resolves.toEqual({ absolute: root, relative: "" });
    await expect(confinePath(root, "./x/../y.txt")).resolves.toMatchObject({ relative: "y.txt" });
  });

  it("refuses relative paths that climb out", async () => {
    const root = tempDir();
    await expect(confinePath(root, "../x")).rejects.toThrow('path "../x" is outside the worktree');
    await expect(confinePath(root, "a/../../x")).rejects.toThrow("outside the worktree");
  });

  it("accepts absolute paths inside and refuses absolute paths outside", async () => {
    const root = tempDir();
    await expect(confinePath(root, path.join(root, "f.txt"))).resolves.toMatchObject({ relative: "f.txt" });
    await expect(confinePath(root, "/etc/passwd")).rejects.toThrow('path "/etc/passwd" is outside the worktree');
  });

  it("refuses a symlink that points outside, for reading and for writing through it", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret.txt"), "s");
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    symlinkSync(outside, path.join(root, "linkdir"));
    await expect(confinePath(root, "link.txt")).rejects.toThrow("through a symlink");
    await expect(confinePath(root, "linkdir/new.txt", { write: true })).rejects.toThrow("outside the worktree");
  });

  it("follows a dangling symlink to where a write would land", async () => {
    const root = tempDir();
    const outside = tempDir();
    symlinkSync(path.join(outside, "not-yet.txt"), path.join(root, "dangling"));
    await expect(confinePath(root, "dangling", { write: true })).rejects.toThrow("outside the worktree");
  });

  it("allows a symlink that stays inside and reports the real location", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "real"));
    writeFileSync(path.join(root, "real/file.txt"), "x");
    symlinkSync(path.join(root, "real"), path.join(root, "alias"));
    await expect(confinePath(root, "alias/file.txt")).resolves.toEqual({
      absolute: path.join(root, "real/file.txt"),
      relative: "real/file.txt",
    });
  });

  it("refuses writes inside .git but allows reads", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, ".git"));
    await expect(confinePath(root, ".git/config", { write: true })).rejects.toThrow("inside .git");
    await expect(confinePath(root, "sub/.git/hooks/pre-commit", { write: true })).rejects.toThrow("inside .git");
    await expect(confinePath(root, ".git/config")).resolves.toMatchObject({ relative: ".git/config" });
    await expect(confinePath(root, ".gitignore", { write: true })).resolves.toMatchObject({ relative: ".gitignore" });
  });
});
