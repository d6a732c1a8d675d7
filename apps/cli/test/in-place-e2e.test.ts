import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// --in-place works in the user's own checkout: uncommitted work there is refused unless the user
// says so, and then a copy is kept before the agent writes anything.

function dirtyRepo() {
  const { root, repo } = makeRepo();
  writeFileSync(join(repo, "src", "value.js"), "export const value = 1; // my uncommitted line\n");
  writeFileSync(join(repo, "notes.txt"), "my untracked notes\n");
  const scenario = join(root, "scenario.jsonl");
  writeFileSync(
    scenario,
    [
      JSON.stringify({
        text: "Rewriting the value.",
        tools: [{ name: "write_file", input: { path: "src/value.js", content: "export const value = 1;\n" } }],
      }),
      JSON.stringify({ text: "Done.", tools: [{ name: "task_complete", input: { summary: "value rewritten" } }] }),
    ].join("\n"),
  );
  const home = mkdtempSync(join(tmpdir(), "hatloop-inplace-"));
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo, encoding: "utf8" }).trim();
  const run = ["run", "tidy the value", "--repo", repo, "--in-place", "--hat", "editor", "--model", `scripted:${scenario}`];
  return { repo, home, env, git, run };
}

describe("--in-place in a checkout with uncommitted changes", () => {
  it("is refused without --allow-dirty, touching nothing", async () => {
    const { repo, home, env, run } = dirtyRepo();
    const r = await runHatloop(run, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^hatloop: the checkout at .* has uncommitted changes; commit or stash them first, or pass --allow-dirty .*refs\/hatloop\/dirty\/.*\n$/,
    );
    expect(readFileSync(join(repo, "src", "value.js"), "utf8")).toContain("my uncommitted line");
    expect(readdirSync(home)).toEqual([]);
  });

  it("with --allow-dirty keeps the changes under refs/hatloop/dirty/<id> before the first write, restorable with git stash apply", async () => {
    const { repo, env, git, run } = dirtyRepo();
    const r = await runHatloop([...run, "--allow-dirty"], env);
    expect(r.code, r.stderr).toBe(0);
    const ref = /refs\/hatloop\/dirty\/[0-9a-f]{8}/.exec(r.stderr)?.[0];
    expect(ref, r.stderr).toBeDefined();
    expect(r.stderr).toContain(`git stash apply ${ref}`);
    expect(readFileSync(join(repo, "src", "value.js"), "utf8")).toBe("export const value = 1;\n");

    const show = await runHatloop(["show", ref!.slice(-8)], env);
    expect(show.stdout).toMatch(
      new RegExp(`^dirty +${ref} \\(your uncommitted changes before the session; git stash apply ${ref}\\)$`, "m"),
    );

    // Back to exactly what the user had: tracked edit and untracked file.
    git("checkout", "--", ".");
    git("clean", "-fdq");
    git("stash", "apply", "--quiet", ref!);
    expect(readFileSync(join(repo, "src", "value.js"), "utf8")).toBe("export const value = 1; // my uncommitted line\n");
    expect(readFileSync(join(repo, "notes.txt"), "utf8")).toBe("my untracked notes\n");
    expect(git("stash", "list")).toBe(""); // the user's own stash list is not touched
  });
});
