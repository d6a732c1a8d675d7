import { InvalidArgumentError, type Command } from "commander";
import { SESSION_STATUSES, type SessionRecord } from "@hatloop/core";
import { usageError } from "../errors.js";
import { durationOption } from "../options.js";
import { withStore } from "../runtime.js";
import { printJson, printText } from "../output/print.js";
import { displayStatus } from "../session/liveness.js";
import { removeAndReport, removeOptions, type RemoveFlags } from "./rm.js";
import { invocation } from "../invocation.js";

/** As `ls` shows them (displayStatus): the stored ones, and "interrupted" for a session whose process is gone. */
const STATUSES: string[] = [...SESSION_STATUSES, "interrupted"];

interface PruneFlags extends RemoveFlags {
  status?: string[];
  olderThan?: number;
}

export function registerPrune(program: Command): void {
  removeOptions(
    program
      .command("prune")
      .description("remove the sessions that match: by status, by age, or both (as rm does, for each)")
      .option("--status <list>", `comma-separated: ${STATUSES.join(", ")}`, statusList)
      .option("--older-than <age>", "not updated for this long, e.g. 7d or 12h", durationOption),
  ).action(async (flags: PruneFlags, command: Command) => {
    if (!flags.status && flags.olderThan === undefined) {
      throw usageError(
        `say what to prune: --status LIST, --older-than AGE or both (e.g. ${invocation()} prune --status completed,failed --older-than 7d)`,
      );
    }
    await withStore(command, async (store) => {
      const now = Date.now();
      const matches = (s: SessionRecord) =>
        (!flags.status || flags.status.includes(displayStatus(s, now))) &&
        (flags.olderThan === undefined || now - s.updatedAt.getTime() >= flags.olderThan);
      const sessions = (await store.sessions.list({ limit: Number.MAX_SAFE_INTEGER })).filter(matches);
      if (sessions.length === 0) return flags.json ? printJson([]) : printText("nothing to prune");
      await removeAndReport(store, sessions, flags);
    });
  });
}

function statusList(value: string): string[] {
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !STATUSES.includes(s));
  if (list.length === 0 || unknown.length) throw new InvalidArgumentError(`expected statuses among ${STATUSES.join(", ")}`);
  return list;
}
