import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";

// A Postgres server of a test's own, to stop, start, freeze (SIGSTOP) and thaw while hatloop uses
// it: outages cannot be played on a shared server. Needs the server binaries (initdb, pg_ctl: found
// with pg_config, or HATLOOP_TEST_PG_BIN); as root it runs them as the `postgres` user, because
// initdb refuses to run as root.

export interface ScratchPostgres {
  url: string;
  port: number;
  /** A new empty database on the server; returns its URL. */
  createDatabase(): Promise<string>;
  /** Fast shutdown: sessions are told 57P01 and the port refuses connections. */
  stop(): void;
  start(): void;
  /** SIGSTOP to every process of the server: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

export function scratchPostgresBinDir(): string | null {
  const candidates = [process.env.HATLOOP_TEST_PG_BIN, pgConfigBinDir()];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) ?? null;
}

function pgConfigBinDir(): string | undefined {
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const bin = scratchPostgresBinDir();
  if (!bin) throw new Error("no Postgres server binaries (initdb, pg_ctl): install them or set HATLOOP_TEST_PG_BIN");
  const root = mkdtempSync(join(tmpdir(), "hatloop-pg-"));
  chmodSync(root, 0o777); // the server's user (postgres, under root) creates its data directory here
  const dataDir = join(root, "data");
  const port = await freePort();
  const asServerUser = (tool: string, args: string[]) => {
    const command = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] : [join(bin, tool), args];
    execFileSync(command[0] as string, command[1] as string[], { stdio: "ignore" });
  };
  asServerUser("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync"]);
  const start = () =>
    asServerUser("pg_ctl", [
      "-D",
      dataDir,
      "-o",
      `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "-l",
      join(root, "log"),
      "-w",
      "start",
    ]);
  const stop = () => asServerUser("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
  const signalAll = (signal: NodeJS.Signals) => {
    for (const pid of serverPids(dataDir)) {
      try {
        process.kill(pid, signal);
      } catch {
        // a child that has just exited
      }
    }
  };
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase() {
      const name = `hatloop_${randomBytes(5).toString("hex")}`;
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`).finally(() => admin.end());
      return url.replace(/\/postgres$/, `/${name}`);
    },
    stop,
    start,
    freeze: () => signalAll("SIGSTOP"),
    thaw: () => signalAll("SIGCONT"),
    destroy() {
      signalAll("SIGCONT");
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The postmaster (from postmaster.pid) and its children. */
function serverPids(dataDir: string): number[] {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return [];
  const main = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Field 4 of /proc/PID/stat is the parent pid (after the command in parentheses).
        return Number(readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]?.split(" ")[1]) === main;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [main, ...children];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
