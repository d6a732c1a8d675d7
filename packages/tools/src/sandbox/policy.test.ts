import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxConfigSchema } from "@hatloop/core";
import { remoteHostOf, sandboxPolicy } from "./policy.js";

describe("a session's sandbox policy", () => {
  const home = mkdtempSync(join(tmpdir(), "hatloop-policy-home-"));
  mkdirSync(join(home, ".npm"));
  const place = { worktree: "/w/wt/repo-1", gitDir: "/w/repo/.git", worktreesDir: "/w/wt", hatloopDirs: ["/data/hatloop"], home };

  it("writes the worktree's existing caches and the user's paths, hides secrets, worktrees and hatloop's data", () => {
    const config = sandboxConfigSchema.parse({ allowWrite: ["~/out", "/srv/cache"], denyRead: ["~/private"], allowHosts: ["example.com"] });
    const policy = sandboxPolicy(config, { ...place, remoteHost: "github.com" });
    expect(policy.allowWrite).toEqual([join(home, ".npm"), join(home, "out"), "/srv/cache"]); // ~/.cache etc. do not exist
    expect(policy.denyRead).toEqual(
      expect.arrayContaining([
        join(home, ".ssh"),
        join(home, ".aws"),
        join(home, ".config/gh"),
        "/w/wt",
        "/data/hatloop",
        join(home, "private"),
      ]),
    );
    expect(policy.denyWrite).toEqual(["/w/wt/repo-1/.git"]);
    expect(policy.allowRead).toEqual(["/w/repo/.git"]);
    expect(policy.allowHosts).toEqual(expect.arrayContaining(["registry.npmjs.org", "pypi.org", "github.com", "example.com"]));
  });

  it("never hides a directory that holds the home directory", () => {
    const policy = sandboxPolicy(sandboxConfigSchema.parse({}), { ...place, worktreesDir: join(home, ".."), hatloopDirs: ["/"] });
    expect(policy.denyRead).not.toContain(join(home, ".."));
    expect(policy.denyRead).not.toContain("/");
  });

  it("finds the host of a git remote", () => {
    expect(remoteHostOf("https://github.com/o/r.git")).toBe("github.com");
    expect(remoteHostOf("git@gitlab.example.com:o/r.git")).toBe("gitlab.example.com");
    expect(remoteHostOf("ssh://git@host.example:2222/o/r")).toBe("host.example");
    expect(remoteHostOf("/srv/git/repo.git")).toBeUndefined();
    expect(remoteHostOf("file:///srv/git/repo.git")).toBeUndefined();
  });
});
