import type { Command } from "commander";
import { ExitCode } from "../errors.js";
import { formatAge, shortId, table } from "../format.js";
import { printJson, printText } from "../output/print.js";
import { serverUrl, withQueue } from "../fleet/queue.js";
import { startCommit } from "../fleet/submission.js";
import { addSchedule, listSchedules, removeSchedule } from "../fleet/schedules.js";
import { configFor, openConfiguredStore } from "../runtime.js";
import { invocation } from "../invocation.js";
import { submissionOf, type SubmitFlags } from "./fleet.js";

// hatloop schedule / schedules / unschedule: recurring tasks on pg-boss's cron (fleet/schedules.ts).
// A schedule is checked as submit checks its task (and the repository's base branch is read once
// now, so a typo fails here rather than at every firing).

type ScheduleFlags = SubmitFlags & { name?: string; tz?: string; json?: boolean };

export async function scheduleAction(cron: string, words: string[], flags: ScheduleFlags, command: Command): Promise<void> {
  const { config, submission } = await submissionOf(words, flags, command, "schedule");
  const url = serverUrl(config, "schedule");
  const name = flags.name ?? `s-${Date.now().toString(36)}`;
  await startCommit(submission.repoUrl, flags.base);
  const store = await openConfiguredStore(config); // migrates the database first
  try {
    await withQueue(url, config, (boss) => addSchedule(boss, { name, cron, ...(flags.tz ? { tz: flags.tz } : {}), submission }));
  } finally {
    await store.close();
  }
  if (flags.json) printJson({ name });
  else printText(name);
  process.exitCode = ExitCode.ok;
}

export async function schedulesAction(flags: { json?: boolean }, command: Command): Promise<void> {
  const config = configFor(command);
  const url = serverUrl(config, "schedules");
  const store = await openConfiguredStore(config);
  try {
    const schedules = await withQueue(url, config, (boss) => listSchedules(store, boss));
    if (flags.json) return printJson(schedules);
    if (schedules.length === 0) return printText(`No schedules. Add one with: ${invocation()} schedule "<cron>" "<task>" --repo URL`);
    const now = new Date();
    printText(
      table([
        ["NAME", "CRON", "NEXT", "LAST", "REPO", "TASK"],
        ...schedules.map((s) => [
          s.name,
          s.timezone === "UTC" ? s.cron : `${s.cron} (${s.timezone})`,
          s.next ? s.next.toISOString() : "-",
          s.last ? `${formatAge(s.last.at, now)} ${shortId(s.last.sessionId)}` : "-",
          s.repo,
          s.task.split("\n")[0]!,
        ]),
      ]),
    );
  } finally {
    await store.close();
  }
}

export async function unscheduleAction(name: string, _flags: unknown, command: Command): Promise<void> {
  const config = configFor(command);
  const url = serverUrl(config, "unschedule");
  const store = await openConfiguredStore(config);
  try {
    await withQueue(url, config, (boss) => removeSchedule(boss, name));
  } finally {
    await store.close();
  }
  printText(`schedule ${name} removed; the sessions it created stay`);
}
