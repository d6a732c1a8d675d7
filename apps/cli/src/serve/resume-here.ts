import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, openSync, closeSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import type { ActionResult } from "@hatloop/console";
import type { HatloopConfig, SessionRecord } from "@hatloop/core";
import { hatloopHome, type DbStore } from "@hatloop/db";
import { shortId } from "../format.js";
import { isLive } from "../session/liveness.js";

// The console's resume of a session that is not the fleet's: `hatloop resume ID --plain` started on
// this machine as its own process (it outlives the page, and the server), its output in a log file.
// It can only run where the session's worktree is.

const BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
/** How long the page waits to see the run take the session before answering. */
const WAIT_MS = 20_000;

export async function resumeHere(store: DbStore, config: HatloopConfig, session: SessionRecord): Promise<ActionResult> {
  const sid = shortId(session.id);
  if (session.host !== null && session.host !== hostname())
    return { ok: false, message: `session ${sid} ran on ${session.host}: resume it there (hatloop resume ${sid})` };
  if (!existsSync(session.worktreePath)) return { ok: false, message: `the worktree of session ${sid} is gone: ${session.worktreePath}` };
  const logs = join(hatloopHome(), "logs");
  mkdirSync(logs, { recursive: true });
  const log = join(logs, `resume-${session.id}.log`);
  const fd = openSync(log, "a");
  const child = spawn(
    process.execPath,
    [BIN, ...(config.databaseUrl ? ["--db", config.databaseUrl] : []), "resume", session.id, "--plain"],
    {
      cwd: existsSync(session.repoPath) ? session.repoPath : session.worktreePath,
      detached: true,
      stdio: ["ignore", fd, fd],
    },
  );
  closeSync(fd);
  child.unref();
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const outcome = await Promise.race([exited, sleep(250).then(() => undefined)]);
    if (outcome !== undefined)
      return { ok: outcome === 0, message: `${lastLine(log) ?? `resume ended (exit ${String(outcome)})`} (log: ${log})` };
    const now = await store.sessions.get(session.id);
    if (now && isLive(now)) return { ok: true, message: `session ${sid} resumed on this machine (pid ${String(child.pid)}; log: ${log})` };
  }
  return {
    ok: true,
    message: `resume of session ${sid} started (pid ${String(child.pid)}); it has not taken the session yet (log: ${log})`,
  };
}

function lastLine(path: string): string | undefined {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .at(-1)
    ?.replace(/^hatloop: /, "");
}
