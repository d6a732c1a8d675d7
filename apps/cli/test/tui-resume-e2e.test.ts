import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { runHatloop } from "./support/hatloop.js";
import { hasTmux, Tmux } from "./support/tmux.js";
import { bin, openPane } from "./support/tui-run.js";

// `hatloop resume` on a terminal: the run view's hat timeline starts at the session's first hat, not
// at the hat it resumes in. The demo's scripted session goes planner → creator (2) → critic (7) →
// editor (9); stopped at an 8-iteration budget, it resumes as the critic.

let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

const demo = new URL("../demo/", import.meta.url).pathname;

function sampleRepo(): string {
  const repo = join(mkdtempSync(join(tmpdir(), "hatloop-tui-resume-")), "slugkit");
  cpSync(join(demo, "sample-repo"), repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], {
      cwd: repo,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  return repo;
}

describe.runIf(requireOrSkip(hasTmux(), "tmux"))("hatloop resume in a terminal (tmux)", () => {
  it("shows the hats worn before the resume, then the ones after", async () => {
    const home = mkdtempSync(join(tmpdir(), "hatloop-tui-resume-home-"));
    const vars = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
    const scenario = `scripted:${join(demo, "scenario.jsonl")}`;
    const task = "make slugify strip edge dashes";
    const first = await runHatloop(["run", task, "--repo", sampleRepo(), "--model", scenario, "--max-iterations", "8", "--plain"], vars);
    expect(first.stdout + first.stderr).toMatch(/hat: creator -> critic/);
    const [session] = JSON.parse((await runHatloop(["ls", "--json"], vars)).stdout) as Array<{ id: string; status: string; hat: string }>;
    expect(session).toMatchObject({ status: "paused", hat: "critic" });

    tmux = new Tmux();
    const env = `env -u CI -u FORCE_COLOR -u NO_COLOR HATLOOP_HOME=${home} HATLOOP_CONFIG=${vars.HATLOOP_CONFIG} TERM=xterm-256color`;
    const pane = openPane(
      tmux,
      "resume",
      120,
      32,
      `${env} ${process.execPath} ${bin} resume ${session!.id.slice(0, 8)} --max-iterations 24; echo "[exit $?]"; sleep 600`,
    );
    const resumed = await tmux.waitFor(pane, /hats: planner/);
    expect(resumed).toMatch(/hats: planner → creator@2 → critic@7/);
    expect(resumed).not.toMatch(/hats: critic/);
    const ended = await tmux.waitFor(pane, /\[exit \d+\]/);
    expect(ended).toMatch(/^hats: planner → creator@2 → critic@7 → editor@9$/m);
    expect(ended).toContain("[exit 0]");
  });
});
