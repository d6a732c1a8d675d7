import { InvalidArgumentError, type Command } from "commander";
import { SESSION_STATUSES } from "@hatloop/core/light";
import {
  budgetOptions,
  durationOption,
  positiveInt,
  pullRequestOptions,
  removeOptions,
  sandboxOption,
  usageLimitOption,
} from "../options.js";
import { registerFleetCommands } from "./fleet-commands.js";
import { lazy } from "./lazy.js";

// Every command with its arguments and options, in the order `hatloop --help` lists them. Only the
// action's module is imported when the command runs (lazy): `--help`, and every usage error, load
// commander and these definitions, never the database, the SDK, React or Ink (lazy-loading.test.ts).

const SESSION = "session id or a unique prefix of it";

export function registerCommands(program: Command): void {
  const run = program
    .command("run")
    .description("start a task: a new branch hatloop/<id> in a git worktree, then the loop")
    .argument("[task...]", "what to do, in plain words; - reads it from stdin")
    .option("--task-file <file>", "read the task from a file (for long specifications)")
    .option("--criteria <file>", "acceptance criteria a grader checks at completion (docs/loop.md), appended to the task")
    .option("-C, --repo <dir>", "the git repository (default: the current directory)")
    .option("--hat <name>", "starting hat (default: planner)");
  sandboxOption(pullRequestOptions(usageLimitOption(budgetOptions(run, false))))
    .option("--model <id>", "model id, or scripted:FILE to replay a scenario offline")
    .option("--provider <name>", "where the model runs: anthropic, bedrock or vertex (docs/providers.md)")
    .option("--in-place", "work in the repository's checkout on its current branch (no worktree)")
    .option("--allow-dirty", "with --in-place: work in a checkout with uncommitted changes (a copy is kept under refs/hatloop/dirty/<id>)")
    .option("--json", "print events as JSON lines")
    .option("--plain", "plain lines even on a terminal (no TUI)")
    .action(lazy(async () => (await import("./run.js")).runAction));

  const resume = program
    .command("resume")
    .description("continue a session from its latest checkpoint (budget flags add to what was used)")
    .argument("[session]", SESSION)
    .option("--last", "the most recently updated session that can be resumed");
  sandboxOption(pullRequestOptions(usageLimitOption(budgetOptions(resume, true))))
    .option("--force", "continue even though the worktree changed since the last checkpoint (keeps the changes)")
    .option("--json", "print events as JSON lines")
    .option("--plain", "plain lines even on a terminal (no TUI)")
    .action(lazy(async () => (await import("./resume.js")).resumeAction));

  program
    .command("answer")
    .description("answer the question a session's agent asked; its run goes on")
    .argument("<session>", SESSION)
    .argument("[answer...]", "the answer, in plain words; - (or nothing, in a pipe) reads it from stdin")
    .action(lazy(async () => (await import("./answer.js")).answerAction));

  program
    .command("demo")
    .description("run a complete scripted session offline: several hats, real edits, real tests and gates")
    .option("--json", "print events as JSON lines")
    .option("--plain", "plain lines even on a terminal (no TUI)")
    .action(lazy(async () => (await import("./demo.js")).demoAction));

  program
    .command("handoff")
    .description("print a session's handoff: task, branch, progress, decisions, next step")
    .argument("<session>", SESSION)
    .option("--format <format>", "md, json or yaml", oneOf(HANDOFF_FORMATS, "expected md, json or yaml"), "md")
    .option("--checkpoint <n>", "the handoff of checkpoint N instead of the latest", positiveInt)
    .action(lazy(async () => (await import("./handoff.js")).handoffAction));

  program
    .command("serve")
    .description("the web console (every session, live, with its actions) and the JSON API (/api/v1); prints a login link")
    .option("--port <port>", "port (0 picks a free one)", portOption, 4317)
    .option("--host <host>", "address to bind; anything but loopback exposes your sessions (and needs a token)", "127.0.0.1")
    .option(
      "--token <token>",
      "the token for the console and the API (default: HATLOOP_SERVE_TOKEN; without one the console gets a token made at start)",
    )
    .action(lazy(async () => (await import("./serve.js")).serveAction));

  program
    .command("watch")
    .description("follow a session from another terminal (default: the most recent running one)")
    .argument("[session]", SESSION)
    .option("--json", "print events as JSON lines")
    .option("--plain", "plain lines even on a terminal (no TUI)")
    .action(lazy(async () => (await import("./watch.js")).watchAction));

  program
    .command("ls")
    .description("list sessions, newest first; on a terminal, the home screen: every session, live, with its actions")
    .option("--json", "print the sessions as a JSON array")
    .option("--plain", "a plain table even on a terminal")
    .option("-n, --limit <n>", "how many sessions", positiveInt, 50)
    .option("--status <list>", `only these statuses, comma-separated: ${LS_STATUSES.join(", ")}`, (v) => statusList(v, LS_STATUSES))
    .option("--worker <name>", "only the fleet sessions this worker runs, or ran last")
    .option("--repo <url|path>", "only the sessions of this repository (a fleet session's URL, or a local repository's path)")
    .option("--totals", "with --json: an object {sessions, totals} instead of the array (plain output always ends with the totals)")
    .action(lazy(async () => (await import("./ls.js")).lsAction));

  program
    .command("show")
    .description("show one session: status, branch, budgets, usage, checklist, last checkpoint")
    .argument("<session>", SESSION)
    .option("--json", "print as JSON")
    .action(lazy(async () => (await import("./show.js")).showAction));

  program
    .command("logs")
    .description("print a session's stored events; -f follows a running session")
    .argument("<session>", SESSION)
    .option("-f, --follow", "keep printing new events until the session's run ends (a fleet session's: until it leaves the queue)")
    .option("-n, --tail <n>", "only the last N events", positiveInt)
    .option("--json", "print events as JSON lines")
    .action(lazy(async () => (await import("./logs.js")).logsAction));

  removeOptions(
    program
      .command("rm")
      .description("remove sessions: their worktree, their branch unless it holds unmerged commits, and their stored data")
      .argument("<session...>", "session ids or unique prefixes"),
  ).action(lazy(async () => (await import("./rm.js")).rmAction));

  removeOptions(
    program
      .command("prune")
      .description("remove the sessions that match: by status, by age, or both (as rm does, for each)")
      .option("--status <list>", `comma-separated: ${PRUNE_STATUSES.join(", ")}`, (v) => statusList(v, PRUNE_STATUSES))
      .option("--older-than <age>", "not updated for this long, e.g. 7d or 12h", durationOption),
  ).action(lazy(async () => (await import("./prune.js")).pruneAction));

  const db = program.command("db").description("the database: where it is, migrations, damage");
  db.command("migrate")
    .description("apply pending migrations (they also run at every start)")
    .action(lazy(async () => (await import("./db.js")).migrateAction));
  db.command("path")
    .description("print where the data lives: a PGlite directory or the Postgres URL (password hidden)")
    .action(lazy(async () => (await import("./db.js")).pathAction));
  db.command("check")
    .description("look for damage in the embedded database (truncated or missing files, rows that lost their session); exit 1 if any")
    .action(lazy(async () => (await import("./db.js")).checkAction));
  db.command("status")
    .description("who holds the embedded database now: a run, a watcher, or the warm holder a short command leaves (pid, memory, linger)")
    .option("--json", "print it as JSON")
    .action(lazy(async () => (await import("./db-holder.js")).statusAction));
  db.command("release")
    .description("stop the embedded database's warm holder now (a run or watcher holding it is left alone; exit 1)")
    .action(lazy(async () => (await import("./db-holder.js")).releaseAction));

  registerFleetCommands(program);
}

const HANDOFF_FORMATS = ["md", "json", "yaml"] as const;

/** As `ls` shows them (displayStatus): the stored ones, and "interrupted" for a session whose process is gone. */
const PRUNE_STATUSES: string[] = [...SESSION_STATUSES, "interrupted"];
/** As `ls` shows them: those, and the fleet's queued (its job waits) and dead-lettered (its starts failed). */
const LS_STATUSES: string[] = [...PRUNE_STATUSES, "queued", "dead-lettered"];

function statusList(value: string, known: string[]): string[] {
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !known.includes(s));
  if (list.length === 0 || unknown.length) throw new InvalidArgumentError(`expected statuses among ${known.join(", ")}`);
  return list;
}

function oneOf<T extends string>(values: readonly T[], message: string): (value: string) => T {
  return (value) => {
    if ((values as readonly string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(message);
  };
}

function portOption(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError("expected a port number (0-65535)");
  return port;
}
