import { describe, expect, it } from "vitest";
import { pushBranch, remoteDefaultBranch, remoteUrl } from "./publish.js";
import { git, isolateGit, tempDir, tempRepo } from "../test-support/fixtures.js";
import { compareUrlOf, webAddressOf } from "../github/web-address.js";

// Publishing a task branch: the remote's web address in each form git accepts, and a real push to a
// bare repository standing in for GitHub (reached through url.*.insteadOf, as a mirror would be).

isolateGit();

describe("a remote's web address", () => {
  it.each([
    ["https://github.com/acme/app.git", "https://github.com/acme/app"],
    ["https://x-access-token:ghp_secret@github.com/acme/app", "https://github.com/acme/app"],
    ["git@github.com:acme/app.git", "https://github.com/acme/app"],
    ["ssh://git@github.example.com:2222/team/app.git", "https://github.example.com/team/app"],
    ["https://git.example.com:8443/team/app/", "https://git.example.com:8443/team/app"],
    ["/srv/git/app.git", null],
    ["file:///srv/git/app.git", null],
    ["../app", null],
  ])("%s -> %s", (remote, web) => {
    expect(webAddressOf(remote)).toBe(web);
  });

  it("the compare page names base...head, or the head alone for the default branch", () => {
    expect(compareUrlOf("https://github.com/acme/app", "hatloop/1a2b3c4d", "main")).toBe(
      "https://github.com/acme/app/compare/main...hatloop/1a2b3c4d?expand=1",
    );
    expect(compareUrlOf("https://github.com/acme/app", "hatloop/1a2b", null)).toBe(
      "https://github.com/acme/app/compare/hatloop/1a2b?expand=1",
    );
  });
});

describe("pushing a task branch", () => {
  function withRemote() {
    const repo = tempRepo();
    const bare = tempDir("hatloop-bare-");
    git(bare, "init", "--quiet", "--bare", "--initial-branch=main");
    git(repo, "remote", "add", "origin", "https://github.com/acme/app.git");
    git(repo, "config", `url.${bare}.insteadOf`, "https://github.com/acme/app.git");
    git(repo, "push", "--quiet", "origin", "main");
    git(repo, "checkout", "--quiet", "-b", "hatloop/1a2b3c4d");
    git(repo, "commit", "--quiet", "--allow-empty", "-m", "work");
    return { repo, bare };
  }

  it("reads the remote as configured and its default branch, then pushes the branch and tracks it", async () => {
    const { repo, bare } = withRemote();
    expect(await remoteUrl(repo, "origin")).toBe("https://github.com/acme/app.git");
    expect(await remoteDefaultBranch(repo, "origin")).toBe("main");
    await pushBranch(repo, "origin", "hatloop/1a2b3c4d");
    expect(git(bare, "rev-parse", "refs/heads/hatloop/1a2b3c4d")).toBe(git(repo, "rev-parse", "HEAD"));
    expect(git(repo, "config", "branch.hatloop/1a2b3c4d.remote")).toBe("origin");
  });

  it("no such remote is null; a push that cannot reach its remote says so in one line", async () => {
    const { repo } = withRemote();
    expect(await remoteUrl(repo, "upstream")).toBeNull();
    expect(await remoteDefaultBranch(repo, "upstream")).toBeNull();
    git(repo, "remote", "add", "gone", "/nonexistent/hatloop-remote.git");
    await expect(pushBranch(repo, "gone", "hatloop/1a2b3c4d")).rejects.toThrow(
      /^could not push hatloop\/1a2b3c4d to gone: fatal: '\/nonexistent\/hatloop-remote\.git' does not appear to be a git repository$/,
    );
  });
});
