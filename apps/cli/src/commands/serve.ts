import type { Command } from "commander";
import { ConsoleAuth, allowedHosts, isLoopback, isWildcard, type ServeAccess } from "@hatloop/console";
import { usageError } from "../errors.js";
import { printError, printText } from "../output/print.js";
import { configFor, openConfiguredStore } from "../runtime.js";
import { serveConsole } from "../serve/server.js";
import { stopOnSignal } from "../serve/shutdown.js";

// `hatloop serve`: the web console and the JSON API. Without a token it binds to loopback only, and
// makes one for the console (printed in its login link); the API's reads stay open there as before.

export async function serveAction(flags: { port: number; host: string; token?: string }, command: Command): Promise<void> {
  const configured = flags.token ?? process.env.HATLOOP_SERVE_TOKEN ?? null;
  if (!isLoopback(flags.host) && !configured)
    throw usageError(`serving on ${flags.host} exposes your sessions beyond this machine; set a token with --token or HATLOOP_SERVE_TOKEN`);
  const config = configFor(command);
  const store = await openConfiguredStore(config);
  const access: ServeAccess = { hosts: new Set() };
  const token = configured ?? ConsoleAuth.generateToken();
  const serving = serveConsole(store, config, { access, token, apiOpen: configured === null });
  await new Promise<void>((resolve, reject) => {
    serving.server.once("error", reject);
    serving.server.listen(flags.port, flags.host, () => resolve());
  });
  const address = serving.server.address();
  const port = typeof address === "object" && address ? address.port : flags.port;
  access.hosts = allowedHosts(flags.host, port);
  if (isWildcard(flags.host)) access.refresh = () => allowedHosts(flags.host, port);
  const base = `http://${flags.host.includes(":") ? `[${flags.host}]` : flags.host}:${port}`;
  const login = configured ? `${base}/login` : `${base}/login?token=${token}`;
  printText(
    `hatloop: serving on ${base}/ (console: ${login}; API: ${base}/api/v1/sessions${configured ? ", token required" : ""}) (Ctrl-C to stop)`,
  );
  const stopped = await stopOnSignal(async () => {
    await serving.close();
    await store.close();
  });
  if (stopped !== "closed") printError(`serve: stopped without closing cleanly (${stopped})`);
  // Told to stop, it stops: a handle left open after the close (seen: the process stayed, idle, for
  // 20 minutes after a fleet console's SIGTERM, its close done) must not keep it running.
  process.exit(0);
}
