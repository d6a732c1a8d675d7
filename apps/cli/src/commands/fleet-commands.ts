import type { Command } from "commander";
import { budgetOptions, integerOption, positiveInt, pullRequestOptions, sandboxOption } from "../options.js";
import { lazy } from "./lazy.js";

// The fleet's commands (docs/fleet.md): submit (queue a task), worker (run queued sessions), stop (from anywhere).

export function registerFleetCommands(program: Command): void {
  submitOptions(
    program
      .command("submit")
      .description("queue a task for the fleet's workers (needs a Postgres --db); prints the session id")
      .argument("[task...]", "what to do, in plain words; - reads it from stdin"),
  )
    .option("--json", 'print {"id": ...}')
    .action(lazy(async () => (await import("./fleet.js")).submitAction));

  submitOptions(
    program
      .command("schedule")
      .description("run a task on a schedule: each firing (pg-boss cron, run by the workers) submits it as a new session")
      .argument("<cron>", 'when: a cron expression, e.g. "0 3 * * *" (03:00 every day, UTC unless --tz)')
      .argument("[task...]", "what to do, in plain words; - reads it from stdin"),
  )
    .option("--name <name>", "the schedule's name, for schedules and unschedule (default: generated)")
    .option("--tz <zone>", "the time zone the expression is read in, e.g. Europe/Berlin (default: UTC)")
    .option("--json", 'print {"name": ...}')
    .action(lazy(async () => (await import("./schedule.js")).scheduleAction));

  program
    .command("schedules")
    .description("list the schedules: name, cron, next and last firing, repository, task")
    .option("--json", "print them as a JSON array")
    .action(lazy(async () => (await import("./schedule.js")).schedulesAction));

  program
    .command("unschedule")
    .description("remove a schedule (the sessions it created stay)")
    .argument("<name>", "the schedule's name")
    .action(lazy(async () => (await import("./schedule.js")).unscheduleAction));

  program
    .command("retry")
    .description("queue a dead-lettered session again (one whose starts failed: clone, fetch, base branch)")
    .argument("<session>", "session id or a unique prefix of it")
    .option("--json", 'print {"id": ...}')
    .action(lazy(async () => (await import("./retry.js")).retryAction));

  program
    .command("rerun")
    .description("run a fleet session's task again as a new session (same repository, base, priority, options); prints its id")
    .argument("<session>", "session id or a unique prefix of it")
    .option("--json", 'print {"id": ..., "from": ...}')
    .action(lazy(async () => (await import("./retry.js")).rerunAction));

  program
    .command("worker")
    .description("run queued sessions (needs a Postgres --db); SIGTERM drains, a second SIGTERM or SIGINT stops at once")
    .option("--concurrency <n>", "sessions run at once by this worker", positiveInt, 1)
    .option("--name <name>", "this worker's name, shown by ls/show (default: host-pid); its repository cache is kept under it")
    .option("--json", "print the worker's log as JSON lines")
    .action(lazy(async () => (await import("./fleet.js")).workerAction));

  program
    .command("workers")
    .description("list the fleet's workers: state (running, draining, stopped, lost), sessions running, takeovers, heartbeat")
    .option("--json", "print them as a JSON array")
    .action(lazy(async () => (await import("./workers.js")).workersAction));

  program
    .command("stop")
    .description("stop a session from any machine: a queued one is taken out of the queue, a running one checkpoints and pauses")
    .argument("<session>", "session id or a unique prefix of it")
    .option("--json", "print the outcome as JSON")
    .action(lazy(async () => (await import("./fleet.js")).stopAction));
}

/** What submit and schedule both take: the task's repository, base, priority, hat, budgets, model. */
function submitOptions(command: Command): Command {
  command
    .option("--task-file <file>", "read the task from a file")
    .option("--criteria <file>", "acceptance criteria a grader checks at completion, appended to the task")
    .requiredOption("--repo <url|path>", "the repository the session travels with: a git URL, or a path the workers can reach")
    .option("--base <branch>", "the remote's branch the task starts from (default: the one its HEAD names); also the pull request's base")
    .option("--priority <n>", "a whole number: higher runs first (default 0)", integerOption)
    .option("--hat <name>", "starting hat (default: planner)");
  return sandboxOption(pullRequestOptions(budgetOptions(command, false)))
    .option("--model <id>", "model id, or scripted:FILE (a file the workers can read)")
    .option("--provider <name>", "where the workers call the model: anthropic, bedrock or vertex (their environment has its credentials)");
}
