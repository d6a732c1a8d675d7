import { describe, expect, it } from "vitest";
import { remoteCommit } from "../index.js";
import { git, isolateGit, tempDir, tempRepo } from "../test-support/fixtures.js";

// The commit a fleet session starts from: the remote's HEAD, or a branch named with `submit --base`.
// A remote whose HEAD names a branch that was never pushed (a bare repository made with git's
// default "master", then pushed "main") has commits: the error must say what is really wrong.

isolateGit();

/** A bare remote whose HEAD names `head`, with branches main and dev (one commit ahead). */
function remoteWith(head: string): { bare: string; main: string; dev: string } {
  const repo = tempRepo();
  const bare = tempDir("hatloop-bare-");
  git(bare, "init", "--quiet", "--bare", `--initial-branch=${head}`);
  git(repo, "push", "--quiet", bare, "main");
  git(repo, "commit", "--quiet", "--allow-empty", "-m", "dev work");
  git(repo, "push", "--quiet", bare, "HEAD:refs/heads/dev");
  return { bare, main: git(repo, "rev-parse", "main~1"), dev: git(repo, "rev-parse", "HEAD") };
}

describe("the commit a remote starts a session from", () => {
  it("is what the remote's HEAD names, or the branch asked for", async () => {
    const { bare, main, dev } = remoteWith("main");
    await expect(remoteCommit(bare)).resolves.toBe(main);
    await expect(remoteCommit(bare, "dev")).resolves.toBe(dev);
  });

  it("a HEAD naming a missing branch is named as such, with the branches there are", async () => {
    const { bare } = remoteWith("master");
    await expect(remoteCommit(bare)).rejects.toMatchObject({
      code: "dangling_head",
      message: `the repository ${bare}'s HEAD names the branch master, which does not exist (its branches: dev, main)`,
    });
    // Through a URL the name of the missing branch is not told (ls-remote leaves an unborn HEAD out).
    await expect(remoteCommit(`file://${bare}`)).rejects.toMatchObject({
      code: "dangling_head",
      message: `the repository file://${bare}'s HEAD names a branch that does not exist (its branches: dev, main)`,
    });
  });

  it("a branch the remote does not have, and a remote with no commits, say so", async () => {
    const { bare } = remoteWith("main");
    await expect(remoteCommit(bare, "nope")).rejects.toMatchObject({
      code: "no_such_branch",
      message: `the repository ${bare} has no branch nope (its branches: dev, main)`,
    });
    const empty = tempDir("hatloop-bare-");
    git(empty, "init", "--quiet", "--bare", "--initial-branch=main");
    await expect(remoteCommit(empty)).rejects.toMatchObject({
      code: "no_commits",
      message: `the repository ${empty} has no commits yet; push a first commit to it`,
    });
  });
});
