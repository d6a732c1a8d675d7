import { createServer } from "node:http";
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { configFor, openConfiguredStore } from "../runtime.js";
import { apiHandler } from "../serve/api.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("serve sessions and handoffs as JSON: GET /api/sessions, /api/sessions/:id, /api/sessions/:id/handoff")
    .option("--port <port>", "port (0 picks a free one)", portOption, 4317)
    .option("--host <host>", "address to bind; anything but loopback exposes your sessions", "127.0.0.1")
    .action(async (flags: { port: number; host: string }, command: Command) => {
      const store = await openConfiguredStore(configFor(command));
      const server = createServer(apiHandler(store));
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(flags.port, flags.host, () => resolve());
      });
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : flags.port;
      process.stdout.write(`hatloop: serving on http://${flags.host}:${port}/api/sessions (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => server.close(() => resolve());
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await store.close();
    });
}

function portOption(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError("expected a port number (0-65535)");
  return port;
}
