import type { Command } from "commander";

// Every command, in the order `hatloop --help` lists them. A command's module (and with it the
// database, the SDK, React or Ink) is imported only when that command runs: `hatloop --help` lists
// the commands from the summaries here, and commands.test.ts checks them against the modules.

/** How `hatloop --help` lists a top-level command: its usage term and its description. */
interface CommandSummary {
  name: string;
  term: string;
  description: string;
}

interface CommandModule {
  /** The top-level commands the module registers. */
  commands: CommandSummary[];
  register(): Promise<(program: Command) => void>;
}

const summary = (term: string, description: string): CommandSummary => ({ name: term.split(" ")[0]!, term, description });

const COMMAND_MODULES: CommandModule[] = [
  {
    commands: [summary("run [options] [task...]", "start a task: a new branch hatloop/<id> in a git worktree, then the loop")],
    register: async () => (await import("./run.js")).registerRun,
  },
  {
    commands: [summary("resume [options] [session]", "continue a session from its latest checkpoint (budget flags add to what was used)")],
    register: async () => (await import("./resume.js")).registerResume,
  },
  {
    commands: [summary("answer <session> [answer...]", "answer the question a session's agent asked; its run goes on")],
    register: async () => (await import("./answer.js")).registerAnswer,
  },
  {
    commands: [summary("demo [options]", "run a complete scripted session offline: several hats, real edits, real tests and gates")],
    register: async () => (await import("./demo.js")).registerDemo,
  },
  {
    commands: [summary("handoff [options] <session>", "print a session's handoff: task, branch, progress, decisions, next step")],
    register: async () => (await import("./handoff.js")).registerHandoff,
  },
  {
    commands: [
      summary("serve [options]", "serve sessions and handoffs as JSON: GET /api/sessions, /api/sessions/:id, /api/sessions/:id/handoff"),
    ],
    register: async () => (await import("./serve.js")).registerServe,
  },
  {
    commands: [summary("watch [options] [session]", "follow a session from another terminal (default: the most recent running one)")],
    register: async () => (await import("./watch.js")).registerWatch,
  },
  {
    commands: [summary("ls [options]", "list sessions, newest first")],
    register: async () => (await import("./ls.js")).registerLs,
  },
  {
    commands: [summary("show [options] <session>", "show one session: status, branch, budgets, usage, checklist, last checkpoint")],
    register: async () => (await import("./show.js")).registerShow,
  },
  {
    commands: [summary("logs [options] <session>", "print a session's stored events; -f follows a running session")],
    register: async () => (await import("./logs.js")).registerLogs,
  },
  {
    commands: [
      summary(
        "rm [options] <session...>",
        "remove sessions: their worktree, their branch unless it holds unmerged commits, and their stored data",
      ),
    ],
    register: async () => (await import("./rm.js")).registerRm,
  },
  {
    commands: [summary("prune [options]", "remove the sessions that match: by status, by age, or both (as rm does, for each)")],
    register: async () => (await import("./prune.js")).registerPrune,
  },
  {
    commands: [summary("db", "the database: where it is, migrations, damage")],
    register: async () => (await import("./db.js")).registerDb,
  },
  {
    commands: [
      summary("submit [options] [task...]", "queue a task for the fleet's workers (needs a Postgres --db); prints the session id"),
      summary("worker [options]", "run queued sessions (needs a Postgres --db); SIGTERM drains, a second SIGTERM or SIGINT stops at once"),
      summary(
        "stop [options] <session>",
        "stop a session from any machine: a queued one is taken out of the queue, a running one checkpoints and pauses",
      ),
    ],
    register: async () => (await import("./fleet.js")).registerFleet,
  },
];

const summaryTerms = new WeakMap<Command, string>();

/** The usage term `--help` lists for a command registered as a summary only. */
export function summaryTerm(command: Command): string | undefined {
  return summaryTerms.get(command);
}

/**
 * Registers every command: the module of `invoked` (a top-level command name) for real, the others as
 * summaries for the help. `invoked` "*" loads them all.
 */
export async function registerCommands(program: Command, invoked: string | null): Promise<void> {
  for (const module of COMMAND_MODULES) {
    if (invoked === "*" || module.commands.some((c) => c.name === invoked)) (await module.register())(program);
    else for (const c of module.commands) summaryTerms.set(program.command(c.name).description(c.description), c.term);
  }
}
