import { migratePgliteDb } from "../migrate.js";
import { EmbeddedRouter } from "./router.js";

// The warm holder of an embedded database: a process of its own (detached, no terminal) that opens
// the directory and serves other processes through its socket until no client has been connected
// for `lingerMs`, then closes it as any holder does. A short command (`hatloop ls`, `show`, `logs`,
// `handoff`, `watch`) that held the directory starts it as it closes (router.ts, `lingerMs`), so the
// next command finds the database started and never loads PGlite. It exits at once when another
// process took the directory in between, and with code 1 when it cannot open it.
// argv: dataDir lingerMs

const [dataDir, linger] = process.argv.slice(2);
if (!dataDir || !linger) throw new Error("usage: warm-holder DATA_DIR LINGER_MS");
const lingerMs = Number(linger);

let idle: NodeJS.Timeout | null = null;
let closing = false;
const router = new EmbeddedRouter({
  dataDir,
  onOpen: migratePgliteDb,
  warmForMs: lingerMs,
  onClients: (count) => {
    if (idle) clearTimeout(idle);
    idle = count === 0 ? setTimeout(() => void stop(0), lingerMs) : null;
  },
});

async function stop(code: number): Promise<void> {
  if (closing) return;
  closing = true;
  await router.close().catch(() => {});
  process.exit(code);
}

process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
try {
  await router.query("select 1", [], "array");
} catch {
  await stop(1);
}
if (router.role !== "owner") await stop(0);
// Nobody connected yet: the linger starts now; the process lives while clients come and go.
idle ??= setTimeout(() => void stop(0), lingerMs);
// The socket and its connections are unref'd (a holder must not outlive its own command); this
// process is the exception: it lives until stop().
setInterval(() => {}, 1 << 30);
