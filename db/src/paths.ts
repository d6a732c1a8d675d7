import { createHash } from "node:crypto";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** hatloop's data directory: HATLOOP_HOME, else $XDG_DATA_HOME/hatloop, else ~/.local/share/hatloop. */
export function hatloopHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HATLOOP_HOME) return resolve(env.HATLOOP_HOME);
  const xdg = env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  return join(xdg, "hatloop");
}

export function defaultPgliteDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(hatloopHome(env), "pglite");
}

/**
 * The unix socket through which other processes reach the process that holds a PGlite directory.
 * It lives in the user's own directory under the temp dir (see ensureOwnerOnlyDir), named by a hash of
 * the data dir, because socket paths are limited to about 100 bytes and data dirs can be deep.
 */
export function brokerSocketPath(dataDir: string): string {
  const hash = createHash("sha256").update(resolve(dataDir)).digest("hex").slice(0, 16);
  return join(tmpdir(), `hatloop-${process.getuid?.() ?? "user"}`, `${hash}.sock`);
}
