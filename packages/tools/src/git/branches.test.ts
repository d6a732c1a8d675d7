import { beforeAll, describe, expect, it } from "vitest";
import { git, isolateGit, tempRepo, writeFiles } from "../test-support/fixtures.js";
import { unmergedCommits } from "./branches.js";

beforeAll(isolateGit);

describe("unmergedCommits", () => {
  it("counts the commits only the branch holds, until another branch contains them", async () => {
    const repo = tempRepo();
    git(repo, "branch", "hatloop/ab12cd34");
    expect(await unmergedCommits(repo, "hatloop/ab12cd34")).toBe(0);
    git(repo, "checkout", "--quiet", "hatloop/ab12cd34");
    for (const n of [1, 2]) {
      writeFiles(repo, { [`note${n}.txt`]: `${n}\n` });
      git(repo, "add", "--all");
      git(repo, "commit", "--quiet", "-m", `note ${n}`);
    }
    expect(await unmergedCommits(repo, "hatloop/ab12cd34")).toBe(2);
    git(repo, "checkout", "--quiet", "main");
    git(repo, "merge", "--quiet", "--ff-only", "hatloop/ab12cd34");
    expect(await unmergedCommits(repo, "hatloop/ab12cd34")).toBe(0);
  });
});
