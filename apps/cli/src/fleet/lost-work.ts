import { toolUses } from "@hatloop/context";
import type { Store } from "@hatloop/core";
import { READ_ONLY_TOOLS } from "@hatloop/tools";

// What a taken-over session's worktree may lack: the calls that could have changed files in the
// iterations after the one whose end the restored files hold (a kill before that iteration's
// snapshot, a snapshot that could not be pushed). Named to the model with the resume packet, so it
// checks them instead of taking the history's "Created notes/n11.txt" at its word.

/** Stored messages looked at: far more than the iterations between two snapshots ever hold. */
const TAIL = 400;
const MAX_LISTED = 20;

export async function lostWorkNote(store: Store, sessionId: string, through: number): Promise<string | undefined> {
  const last = await store.messages.lastSeq(sessionId);
  if (last === 0) return undefined;
  const tail = await store.messages.range(sessionId, Math.max(1, last - TAIL + 1), last);
  const calls = tail
    .filter((m) => m.iteration > through && m.kind === "conversation" && m.message.role === "assistant")
    .flatMap((m) => toolUses(m.message).map((use) => ({ iteration: m.iteration, use })))
    .filter(({ use }) => !READ_ONLY_TOOLS.has(use.name));
  if (calls.length === 0) return undefined;
  const listed = calls.slice(0, MAX_LISTED).map(({ iteration, use }) => `${use.name} ${describe(use.input)} (iteration ${iteration})`);
  const more = calls.length > MAX_LISTED ? `, and ${calls.length - MAX_LISTED} more` : "";
  return (
    `The session was taken over from a runner that stopped (killed or lost). The worktree holds its work through iteration ${through}; ` +
    `what these later calls did may be missing: ${listed.join("; ")}${more}. Check the worktree (git status, read the files) and redo what is missing before going on.`
  );
}

function describe(input: unknown): string {
  const fields = input as { path?: unknown; command?: unknown };
  if (typeof fields.path === "string") return fields.path;
  if (typeof fields.command === "string") return `\`${fields.command.length > 80 ? `${fields.command.slice(0, 80)}…` : fields.command}\``;
  return "";
}
