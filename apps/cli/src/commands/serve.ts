import { createServer } from "node:http";
import type { Command } from "commander";
import { usageError } from "../errors.js";
import { printText } from "../output/print.js";
import { configFor, openConfiguredStore } from "../runtime.js";
import { allowedHosts, isLoopback, isWildcard, type ServeAccess } from "../serve/access.js";
import { apiHandler } from "../serve/api.js";

export async function serveAction(flags: { port: number; host: string; token?: string }, command: Command): Promise<void> {
  const token = flags.token ?? process.env.HATLOOP_SERVE_TOKEN ?? null;
  if (!isLoopback(flags.host) && !token)
    throw usageError(`serving on ${flags.host} exposes your sessions beyond this machine; set a token with --token or HATLOOP_SERVE_TOKEN`);
  const store = await openConfiguredStore(configFor(command));
  const access: ServeAccess = { hosts: new Set(), token };
  const handle = apiHandler(store, access);
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(flags.port, flags.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : flags.port;
  access.hosts = allowedHosts(flags.host, port);
  if (isWildcard(flags.host)) access.refresh = () => allowedHosts(flags.host, port);
  printText(`hatloop: serving on http://${flags.host}:${port}/api/sessions${token ? " (token required)" : ""} (Ctrl-C to stop)`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await store.close();
}
