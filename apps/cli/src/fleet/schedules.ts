import type { PgBoss } from "pg-boss";
import { errorMessage } from "@hatloop/context";
import { fleetStore, type DbStore } from "@hatloop/db";
import { CliError, usageError } from "../errors.js";
import { SCHEDULE_QUEUE } from "./queue.js";
import type { Submission } from "./submission.js";

// Scheduled and recurring tasks (hatloop schedule / schedules / unschedule): pg-boss's cron, one
// schedule per name (its `key`) on the fleet's schedule queue. pg-boss sends each firing as a job
// there once, whichever workers run its cron; a worker makes the firing a new session
// (fleet/firing.ts). The schedule's data is the Submission every firing reuses.

/** A schedule's data: what each firing submits. */
export interface ScheduleData {
  schedule: string;
  submission: Submission;
}

export interface ScheduleView {
  name: string;
  cron: string;
  /** The time zone the expression is read in (default UTC). */
  timezone: string;
  task: string;
  repo: string;
  base: string | null;
  priority: number;
  /** The next firing; null when the expression has none left. */
  next: Date | null;
  /** The newest session a firing created; null: none yet. */
  last: { sessionId: string; at: Date } | null;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Adds a schedule; a bad name, expression or zone, or a name in use, is a usage error (exit 2). */
export async function addSchedule(
  boss: PgBoss,
  schedule: { name: string; cron: string; tz?: string; submission: Submission },
): Promise<void> {
  const { name, cron, tz } = schedule;
  if (!NAME.test(name)) throw usageError(`invalid schedule name "${name}" (letters, digits, . _ -, at most 64)`);
  try {
    // Pure arithmetic (cron-parser): checks the expression and the zone before anything is stored.
    boss.previewSchedule(cron, { count: 1, ...(tz ? { tz } : {}) });
  } catch (error) {
    throw usageError(`invalid cron expression "${cron}"${tz ? ` in time zone ${tz}` : ""}: ${firstLine(errorMessage(error))}`);
  }
  if ((await boss.getSchedules(SCHEDULE_QUEUE, name)).length)
    throw usageError(`a schedule named ${name} exists; remove it first (hatloop unschedule ${name}) or pick another --name`);
  const data: ScheduleData = { schedule: name, submission: schedule.submission };
  await boss.schedule(SCHEDULE_QUEUE, cron, data, { key: name, ...(tz ? { tz } : {}) });
}

/** Removes a schedule; an unknown name is an error (exit 1). Sessions it created stay. */
export async function removeSchedule(boss: PgBoss, name: string): Promise<void> {
  if (!(await boss.getSchedules(SCHEDULE_QUEUE, name)).length) throw new CliError(`no schedule named "${name}" (see hatloop schedules)`);
  await boss.unschedule(SCHEDULE_QUEUE, name);
}

/** Every schedule, by name, with its next firing and the newest session it created. */
export async function listSchedules(store: DbStore, boss: PgBoss): Promise<ScheduleView[]> {
  const schedules = await boss.getSchedules(SCHEDULE_QUEUE);
  const last = await fleetStore(store.database.db).lastFirings(schedules.map((s) => s.key));
  return schedules
    .map((s) => {
      const { submission } = s.data as ScheduleData;
      let next: Date | null;
      try {
        next = boss.previewSchedule(s.cron, { count: 1, tz: s.timezone })[0] ?? null;
      } catch {
        next = null; // an expression pg-boss no longer reads: listed, with no next firing
      }
      return {
        name: s.key,
        cron: s.cron,
        timezone: s.timezone,
        task: submission.task,
        repo: submission.repoUrl,
        base: submission.base,
        priority: submission.priority,
        next,
        last: last.get(s.key) ?? null,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
