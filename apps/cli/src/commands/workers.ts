import type { Command } from "commander";
import { formatAge, table } from "../format.js";
import { printJson, printText } from "../output/print.js";
import { listWorkers } from "../fleet/presence.js";
import { withStore } from "../runtime.js";
import { invocation } from "../invocation.js";

// hatloop workers: the fleet's workers as the workers table has them (fleet/presence.ts), from any
// machine. The embedded database has none.

export async function workersAction(flags: { json?: boolean }, command: Command): Promise<void> {
  await withStore(command, async (store) => {
    const workers = await listWorkers(store);
    if (flags.json) return printJson(workers);
    if (workers.length === 0) return printText(`No workers. Start one with: ${invocation()} --db postgres://... worker`);
    const now = new Date();
    printText(
      table([
        ["NAME", "STATE", "RUNNING", "CONCURRENCY", "TAKEOVERS", "HOST", "PID", "STARTED", "HEARTBEAT"],
        ...workers.map((w) => [
          w.name,
          w.state,
          String(w.running),
          String(w.concurrency),
          String(w.takeovers),
          w.host,
          String(w.pid),
          formatAge(w.startedAt, now),
          w.state === "stopped" ? `stopped ${formatAge(w.stoppedAt ?? w.heartbeatAt, now)}` : formatAge(w.heartbeatAt, now),
        ]),
      ]),
    );
  });
}
