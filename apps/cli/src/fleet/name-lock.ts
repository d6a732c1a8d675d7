import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { usageError } from "../errors.js";
import { processAlive } from "../session/liveness.js";

/** One worker per name on a machine: its cache directory is its own. */
export function takeNameLock(dir: string): { release(): void } {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "worker.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return { release: () => rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (pid && processAlive(pid))
        throw usageError(`a worker with this name already runs here (pid ${pid}); give each worker on a machine its own --name`);
      rmSync(file, { force: true }); // left by a worker that was killed
    }
  }
  throw usageError(`cannot lock the worker directory ${dir}`);
}
