import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

// The warm holder a short command leaves behind (db/src/embedded/warm-holder.ts): the bench stops it
// to measure what the first command after it has gone pays, and before a row that needs the
// directory held by another process.

const ownerFile = (dataDir: string): string => `${dataDir}.lock/owner.json`;

/**
 * Stops whoever holds `dataDir` (SIGTERM, as the holder's linger would) and waits until the lock is
 * gone. `appearing`: a command just exited and its warm holder may still be starting: wait for it.
 */
export async function stopWarmHolder(dataDir: string, { appearing = false } = {}): Promise<void> {
  const file = ownerFile(dataDir);
  for (let waited = 0; appearing && !existsSync(file) && waited < 5_000; waited += 20) await sleep(20);
  if (!existsSync(file)) return;
  const { pid } = JSON.parse(readFileSync(file, "utf8")) as { pid: number };
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // Gone already; its lock is broken by the next opener.
    return;
  }
  for (let waited = 0; existsSync(file) && waited < 30_000; waited += 20) await sleep(20);
}
