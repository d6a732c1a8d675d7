import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { shortId } from "../format.js";
import { configFor, openConfiguredStore } from "../runtime.js";
import { driveSession } from "../session/drive.js";
import { chooseModel } from "../session/model.js";
import { demoDir } from "../session/paths.js";
import { startSession } from "../session/start.js";

// An offline end-to-end session: the bundled sample repository is copied to a temp dir and made a
// git repository, then a scripted model works a real task in it — real files, real `npm test`, real
// quality gates — and the session lands in the database like any other.

export const DEMO_TASK =
  'slugify("  Hello, World!  ") returns "hello-world-": make slugify never start or end with a dash, with a test.';

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("run a complete scripted session offline: several hats, real edits, real tests and gates")
    .option("--json", "print events as JSON lines")
    .action(async (flags: { json?: boolean }, command: Command) => {
      const repo = prepareSampleRepo();
      const model = chooseModel(`scripted:${join(demoDir, "scenario.jsonl")}`);
      const config = configFor(command, { model: model.id, maxIterations: 30 });
      const store = await openConfiguredStore(config);
      try {
        process.stderr.write(`hatloop demo: sample repository at ${repo}\n`);
        const session = await startSession({ task: DEMO_TASK, repoDir: repo, inPlace: false, config, modelId: model.id, store, progress: (l) => process.stderr.write(`${l}\n`) });
        process.exitCode = await driveSession({ session, store, config, model, output: flags.json ? "json" : "plain" });
        process.stderr.write(`hatloop demo: done. Look around: hatloop show ${shortId(session.id)}, hatloop ls, git -C ${session.worktreePath} log --oneline\n`);
      } finally {
        await store.close();
      }
    });
}

/** Copies the sample repository to a fresh temp dir and commits it, so the demo never touches yours. */
function prepareSampleRepo(): string {
  const root = mkdtempSync(join(tmpdir(), "hatloop-demo-"));
  const repo = join(root, "slugkit");
  cpSync(join(demoDir, "sample-repo"), repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=hatloop demo", "-c", "user.email=demo@hatloop.local", "-c", "init.defaultBranch=main", ...args], { cwd: repo, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "slugkit: initial version");
  return repo;
}
