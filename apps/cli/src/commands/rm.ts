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

export function registerRm(program: Command): void {
  removeOptions(
    program
      .command("rm")
      .description("remove sessions: their worktree, their branch unless it holds unmerged commits, and their stored data")
      .argument("<session...>", "session ids or unique prefixes"),
  ).action(async (ids: string[], flags: RemoveFlags, command: Command) => {
    await withStore(command, async (store) => {
      // Every id is resolved first: a typo removes nothing.
      const sessions: SessionRecord[] = [];
      for (const id of ids) {
        const session = await resolveSession(store, id);
        if (!sessions.some((s) => s.id === session.id)) sessions.push(session);
      }
      await removeAndReport(store, sessions, flags);
    });
  });
}

/** The flags rm and prune share. */
export function removeOptions(command: Command): Command {
  return command
    .option("--force", "also remove running sessions and worktrees with uncommitted changes, and delete branches with unmerged commits")
    .option("--dry-run", "say what would be removed; remove nothing")
    .option("--json", "print what was done as a JSON array");
}

/** Removes, prints one line per session (or JSON); exit code 1 when any was not removed. */
export async function removeAndReport(store: Store, sessions: SessionRecord[], flags: RemoveFlags): Promise<void> {
  const options: RemoveOptions = { force: Boolean(flags.force), dryRun: Boolean(flags.dryRun) };
  const removals = await removeSessions(store, sessions, options);
  if (flags.json) printJson(removals);
  else if (removals.length) printText(removals.map((r, i) => describeRemoval(r, sessions[i]!)).join("\n"));
  if (removals.some((r) => r.refused)) process.exitCode = ExitCode.failure;
}
