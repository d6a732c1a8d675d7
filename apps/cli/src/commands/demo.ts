import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { shortId } from "../format.js";
import { configFor, openConfiguredStore } from "../runtime.js";
import { renderHandoffMarkdown } from "@hatloop/context";
import { closeSandbox } from "@hatloop/tools";
import { ExitCode } from "../errors.js";
import { driveSession } from "../session/drive.js";
import { outputMode } from "../ui/output-mode.js";
import { openSessionUi, type SessionUi } from "../ui/session-ui.js";
import { findHandoff } from "../session/handoff.js";
import { resumeSession } from "./resume.js";
import { chooseModel } from "../session/model.js";
import { demoDir } from "../session/paths.js";
import { planSession } from "../session/plan.js";
import { startInterruptibly } from "../session/start.js";
import { printText } from "../output/print.js";
import { invocation } from "../invocation.js";

// An offline end-to-end session: the bundled sample repository is copied to a temp dir and made a
// git repository, then a scripted model works a real task in it — real files, real tests (node:test), real
// quality gates — and the session lands in the database like any other. It runs in two parts: the
// first stops at a small iteration budget, the handoff is printed, and the second resumes from the
// checkpoint. A small context window makes the context guard warn, checkpoint and compact.

/** The first part stops here (a budget pause); the rest runs after a resume. */
const DEMO_FIRST_PART = 6;
/** Small enough that twelve iterations cross the gauge, warn and compaction thresholds. */
const DEMO_WINDOW = 6_000;

/**
 * The sample repository's checks, run by node itself: through npm (what gates.detect finds in its
 * package.json) each gate paid npm's start-up, 0.3-0.4 s of CPU, nine times a demo; `node --test`
 * starts a runner and then a process for the one test file, which run alone prints the same TAP. The
 * scenario's test runs call it likewise.
 */
const DEMO_GATES = { test: "node test/slugify.test.js", lint: "node scripts/lint.js" };

const DEMO_TASK = 'slugify("  Hello, World!  ") returns "hello-world-": make slugify never start or end with a dash, with a test.';

export async function demoAction(flags: { json?: boolean; plain?: boolean }, command: Command): Promise<void> {
  const repo = prepareSampleRepo();
  const model = chooseModel(`scripted:${join(demoDir, "scenario.jsonl")}`);
  const config = configFor(command, {
    model: model.id,
    maxIterations: DEMO_FIRST_PART,
    context: { window: DEMO_WINDOW },
    gates: DEMO_GATES,
  });
  const output = outputMode(flags);
  const plan = await planSession({ task: DEMO_TASK, repoDir: repo, inPlace: false, allowDirty: false, config, modelId: model.id });
  const store = await openConfiguredStore(config);
  let ui: SessionUi | null = null;
  try {
    printText(`hatloop demo: sample repository at ${repo}`, process.stderr);
    const session = await startInterruptibly(plan, store, (l) => printText(l, process.stderr));
    // One view for both parts: on a terminal the TUI stays up across the pause and the resume.
    ui = await openSessionUi(output, session, store);
    const first = await driveSession({ session, store, config, model, output, ui });
    if (first !== ExitCode.budget) {
      process.exitCode = first;
      return;
    }
    const hatloop = invocation();
    const id = shortId(session.id);
    const found = await findHandoff(store, session.id);
    ui.notice(`demo: paused at its budget of ${DEMO_FIRST_PART} iterations; the handoff is saved (${hatloop} handoff ${id})`);
    if (found && output === "plain") printText(renderHandoffMarkdown(found.handoff));
    ui.notice(`demo: resuming with ${hatloop} resume ${id} --max-iterations 24`);
    const paused = (await store.sessions.get(session.id))!;
    process.exitCode = await resumeSession(store, paused, { maxIterations: 24, json: flags.json, plain: flags.plain }, config, ui);
    await ui.close();
    ui = null;
    printText(
      `hatloop demo: done. Look around: ${hatloop} show ${id}, ${hatloop} handoff ${id}, ${hatloop} logs ${id}, git -C ${session.worktreePath} log --oneline`,
      process.stderr,
    );
  } finally {
    await ui?.close();
    await store.close();
    await closeSandbox();
  }
}

/** Copies the sample repository to a fresh temp dir and commits it, so the demo never touches yours. */
function prepareSampleRepo(): string {
  const root = mkdtempSync(join(tmpdir(), "hatloop-demo-"));
  const repo = join(root, "slugkit");
  cpSync(join(demoDir, "sample-repo"), repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=hatloop demo", "-c", "user.email=demo@hatloop.local", "-c", "init.defaultBranch=main", ...args], {
      cwd: repo,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "slugkit: initial version");
  return repo;
}
