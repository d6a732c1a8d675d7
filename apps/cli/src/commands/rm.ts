import type { Command } from "commander";
import type { SessionRecord, Store } from "@hatloop/core";
import { ExitCode } from "../errors.js";
import { resolveSession, withStore } from "../runtime.js";
import { printJson, printText } from "../output/print.js";
import { describeRemoval, removeSessions, type RemoveOptions } from "../session/removal.js";

export interface RemoveFlags {
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export async function rmAction(ids: string[], flags: RemoveFlags, command: Command): Promise<void> {
  await withStore(command, async (store) => {
    // Every id is resolved first: a typo removes nothing.
    const sessions: SessionRecord[] = [];
    for (const id of ids) {
      const session = await resolveSession(store, id);
      if (!sessions.some((s) => s.id === session.id)) sessions.push(session);
    }
    await removeAndReport(store, sessions, flags);
  });
}

/** Removes, prints one line per session (or JSON); exit code 1 when any was not removed. */
export async function removeAndReport(store: Store, sessions: SessionRecord[], flags: RemoveFlags): Promise<void> {
  const options: RemoveOptions = { force: Boolean(flags.force), dryRun: Boolean(flags.dryRun) };
  const removals = await removeSessions(store, sessions, options);
  if (flags.json) printJson(removals);
  else if (removals.length) printText(removals.map((r, i) => describeRemoval(r, sessions[i]!)).join("\n"));
  if (removals.some((r) => r.refused)) process.exitCode = ExitCode.failure;
}
