import type { Command } from "commander";
import type { SessionRecord } from "@hatloop/core";
import { usageError } from "../errors.js";
import { withStore } from "../runtime.js";
import { printJson, printText } from "../output/print.js";
import { displayStatus } from "../session/liveness.js";
import { removeAndReport, type RemoveFlags } from "./rm.js";
import { invocation } from "../invocation.js";

interface PruneFlags extends RemoveFlags {
  status?: string[];
  olderThan?: number;
}

export async function pruneAction(flags: PruneFlags, command: Command): Promise<void> {
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
}
