import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHatloop } from "./support/hatloop.js";
import { scenarioIn, startWorker, withFleet } from "./support/fleet.js";

// `hatloop submit` against a remote whose HEAD names a branch that was never pushed (a bare
// repository made with git's default "master", then pushed "main"): the error says so and what to do,
// and `--base` starts the task from a branch of the remote instead, through a worker to completion.

const server = process.env.HATLOOP_TEST_DATABASE_URL;

describe.skipIf(!server)("submit and the remote's HEAD (Postgres, a worker, a bare remote)", () => {
  it("a HEAD naming a missing branch is said as such; --base starts from a branch, a wrong --base names the branches", async () => {
    await withFleet(async ({ store, root, remote, env, workers }) => {
      const git = (...args: string[]) => execFileSync("git", ["--git-dir", remote, ...args], { encoding: "utf8" }).trim();
      git("symbolic-ref", "HEAD", "refs/heads/master");
      // A dev branch one commit ahead of main, made in a clone.
      const clone = join(mkdtempSync(join(tmpdir(), "hatloop-base-")), "clone");
      execFileSync("git", ["clone", "-q", "-b", "main", remote, clone]);
      const inClone = (...args: string[]) =>
        execFileSync("git", ["-C", clone, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { encoding: "utf8" }).trim();
      inClone("commit", "-q", "--allow-empty", "-m", "dev work");
      inClone("push", "-q", "origin", "HEAD:refs/heads/dev");
      const dev = inClone("rev-parse", "HEAD");
      const scenario = scenarioIn(root, "one", 1, 0);
      const submit = (...extra: string[]) =>
        runHatloop(["submit", "the task", "--repo", remote, "--hat", "editor", "--model", `scripted:${scenario}`, "--json", ...extra], env);

      const dangling = await submit();
      expect(dangling.code).toBe(2);
      expect(dangling.stderr).toBe(
        `hatloop: the repository ${remote}'s HEAD names the branch master, which does not exist (its branches: dev, main); pass --base <branch> to start from one of them, or point the remote's HEAD at one (in the remote: git symbolic-ref HEAD refs/heads/<branch>; on a hosting site: its default branch setting)\n`,
      );

      const wrong = await submit("--base", "nope");
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toBe(`hatloop: the repository ${remote} has no branch nope (its branches: dev, main)\n`);

      const ran = await submit("--base", "dev");
      expect(ran.code, ran.stderr).toBe(0);
      const id = (JSON.parse(ran.stdout) as { id: string }).id;
      const session = await store.sessions.get(id);
      expect(session).toMatchObject({ baseCommit: dev, config: expect.objectContaining({ pr: expect.objectContaining({ base: "dev" }) }) });

      const worker = startWorker("w1", env);
      workers.push(worker);
      await worker.waitFor((e) => e.event === "session ended" && e.session === id && e.status === "completed");
      // The pushed task branch grew from dev.
      execFileSync("git", ["--git-dir", remote, "merge-base", "--is-ancestor", dev, `refs/heads/hatloop/${id.slice(0, 8)}`]);
    });
  });
});
