import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";
import { brokerSocketPath } from "../paths.js";
import { PRUNE_RECEIPTS } from "../resilience/receipts.js";
import {
  BrokerClient,
  OwnerUnreachableError,
  serveQueries,
  type Execute,
  type QueryServer,
  type RowMode,
  type Subscribe,
} from "./broker.js";
import { DatabaseDamagedError, findDamage, findDamageDeeply } from "./damage.js";
import { acquireLock, isAlive, processStart } from "./lock.js";
import { readManifest, writeManifest } from "./manifest.js";
import { queryPglite } from "./pglite-query.js";
import { dropResting, writeResting } from "./resting-file.js";
import { restingKey } from "./resting-key.js";
import { corruptionIn, holdsDatabase, startFailure } from "./unreadable.js";

// Routes every query of this process to the PGlite directory: directly when this process holds it,
// through the holder's socket otherwise. When the holder exits, the next query promotes this process
// to holder (or to a client of whoever promoted first), so watchers outlive the loop they watch.

export interface EmbeddedOptions {
  dataDir: string;
  /** Runs once, right after this process opens the directory as its holder. */
  onOpen: (pg: PGlite) => Promise<void>;
  /** How long to wait for a holder that is still starting up. */
  connectTimeoutMs?: number;
  /** Open a damaged directory anyway, without migrating it (`hatloop db check`). */
  allowDamaged?: boolean;
  /**
   * When this process held the directory, it hands it to a warm holder (warm-holder.ts) as it
   * closes: a process of its own that stays for this long after its last client leaves, so the next
   * command finds the database started. The first command opens a free directory itself, which is
   * quicker than starting a holder and waiting for it.
   */
  lingerMs?: number;
  /** As holder: told how many clients are connected, whenever that changes. */
  onClients?: (count: number) => void;
  /** This process is a warm holder that stays this long after its last client: said in the lock (`hatloop db status`). */
  warmForMs?: number;
}

const warmHolderScript = fileURLToPath(new URL("./warm-holder.js", import.meta.url));

type Route =
  | { kind: "owner"; pg: PGlite; server: QueryServer; release: () => void; damaged: boolean; wrote: boolean }
  | { kind: "client"; client: BrokerClient };

/** Statements that write nothing (hatloop's reads all start so). */
const READ = /^\s*select\s/i;

/** About 20 s of retries while a departing owner hands the directory over. */
const MAX_ATTEMPTS = 110;

/** Told of each NOTIFY on its channel; null when the route changed and one may have been missed. */
type Listener = (payload: string | null) => void;

export class EmbeddedRouter {
  private route: Route | null = null;
  private connecting: Promise<Route> | null = null;
  private closed = false;
  private readonly listeners = new Map<string, Set<Listener>>();
  /** How the current route listens: stops listening on it. */
  private unlistenRoute: Array<() => Promise<void>> = [];

  constructor(private readonly options: EmbeddedOptions) {}

  get role(): "owner" | "client" | "closed" {
    return this.route?.kind ?? "closed";
  }

  async query(sql: string, params: unknown[], mode: RowMode): Promise<unknown[]> {
    try {
      return await this.routeQuery(sql, params, mode);
    } catch (error) {
      throw corruptionIn(this.options.dataDir, error);
    }
  }

  private async routeQuery(sql: string, params: unknown[], mode: RowMode): Promise<unknown[]> {
    for (let attempt = 1; ; attempt++) {
      const route = await this.current();
      if (route.kind === "owner") return this.local(route)(sql, params, mode);
      try {
        return await route.client.query(sql, params, mode);
      } catch (error) {
        // A read can always be retried here; a write only if it never ran (one that may have run is
        // retried by resilient-query.ts, with its receipt). While the owner closes, its lock is
        // still held: keep trying until it is gone and this process can take over.
        const retriable = error instanceof OwnerUnreachableError && (!error.sent || READ.test(sql));
        if (!retriable || attempt >= MAX_ATTEMPTS) throw error;
        this.route = null;
        await sleep(Math.min(20 * attempt, 200));
      }
    }
  }

  /**
   * LISTEN on `channel`, across hand-overs: each new route (this process as holder, or a client of
   * the next one) listens again, and the listener is told `null` then, since a NOTIFY may have
   * been missed in between. Resolves with the function that stops listening.
   */
  async listen(channel: string, onPayload: Listener): Promise<() => Promise<void>> {
    const set = this.listeners.get(channel) ?? new Set<Listener>();
    this.listeners.set(channel, set);
    const first = set.size === 0;
    set.add(onPayload);
    // A route being made listens on every channel once made (listenAgain); a route already made
    // starts listening on a new channel here.
    const made = this.route && !(this.route.kind === "client" && this.route.client.isClosed) ? this.route : null;
    if (made && first) this.unlistenRoute.push(await this.listenOn(made, channel));
    else if (!made) await this.current();
    return async () => {
      set.delete(onPayload);
    };
  }

  private listenOn(route: Route, channel: string): Promise<() => Promise<void>> {
    const deliver = (payload: string | null) => this.listeners.get(channel)?.forEach((l) => l(payload));
    if (route.kind === "owner") return route.pg.listen(channel, deliver);
    return route.client.listen(channel, deliver).then(() => () => route.client.unlisten(channel));
  }

  /** A new route: listen on it for every channel, and wake the listeners. */
  private async listenAgain(route: Route): Promise<void> {
    this.unlistenRoute = [];
    for (const channel of this.listeners.keys()) {
      this.unlistenRoute.push(await this.listenOn(route, channel));
      this.listeners.get(channel)?.forEach((l) => l(null));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.unlistenRoute.map((stop) => stop().catch(() => {})));
    const route = this.route ?? (this.connecting ? await this.connecting.catch(() => null) : null);
    this.route = null;
    if (!route) return;
    if (route.kind === "client") return route.client.close();
    await route.server.close();
    // Reads change no file size; a damaged directory keeps the manifest that shows the damage.
    if (route.wrote && !route.damaged) await writeManifest(this.local(route), this.options.dataDir).catch(() => {});
    const atRest = route.damaged ? null : await this.restingSessions(route).catch(() => null);
    await route.pg.close();
    // After Postgres has shut down: its last writes are in the file's stamp.
    if (atRest) this.leaveAtRest(atRest);
    route.release();
    if (this.options.lingerMs && !route.damaged) this.startWarmHolder(this.options.lingerMs);
  }

  /** Every check, a full read of every table included; null when another process holds the directory. */
  async checkDeeply(tables: string[]): Promise<string[] | null> {
    const route = await this.current();
    if (route.kind !== "owner") return null;
    const quick = await findDamage(this.local(route), this.options.dataDir, { thorough: true });
    return [...quick, ...(await findDamageDeeply((script) => route.pg.exec(script), tables))];
  }

  private current(): Promise<Route> {
    if (this.closed) return Promise.reject(new Error("the database is closed"));
    if (this.route && !(this.route.kind === "client" && this.route.client.isClosed)) return Promise.resolve(this.route);
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<Route> {
    const { dataDir } = this.options;
    const socket = brokerSocketPath(dataDir);
    const lockDir = `${dataDir}.lock`;
    mkdirSync(dirname(dataDir), { recursive: true });
    const deadline = Date.now() + (this.options.connectTimeoutMs ?? 30_000);
    for (;;) {
      const lock = acquireLock(lockDir, {
        pid: process.pid,
        started: processStart(process.pid),
        socket,
        token: randomUUID(),
        since: new Date().toISOString(),
        ...(this.options.warmForMs === undefined ? {} : { warmForMs: this.options.warmForMs }),
      });
      if (lock.kind === "acquired") {
        this.route = await this.becomeOwner(socket, lock.release);
        await this.listenAgain(this.route);
        return this.route;
      }
      const owner = lock.owner;
      if (owner && owner.pid !== process.pid) {
        try {
          const client = await BrokerClient.connect(owner.socket);
          this.route = { kind: "client", client };
          // Listeners must not wait for the next query to find the holder gone.
          client.onClose = () => {
            if (this.listeners.size > 0 && !this.closed) void this.current().catch(() => {});
          };
          await this.listenAgain(this.route);
          return this.route;
        } catch (error) {
          if (!(error instanceof OwnerUnreachableError)) throw error;
          // The holder is alive but not serving yet (opening or migrating): wait for it.
        }
      }
      if (Date.now() > deadline) {
        const who = owner ? `process ${owner.pid}${isAlive(owner) ? "" : " (gone)"}` : "another process";
        throw new Error(`the embedded database at ${dataDir} is held by ${who} and did not answer; set DATABASE_URL to use Postgres`);
      }
      // Often a warm holder that is still opening the directory: it serves within a few tenths of a second.
      await sleep(25);
    }
  }

  /** Imported here: a warm holder loads drizzle only as it closes. */
  private async restingSessions(route: { pg: PGlite }): Promise<unknown> {
    const [{ drizzleOver }, { sessionsToRest }] = await Promise.all([import("../db.js"), import("../stores/sessions-to-rest.js")]);
    return sessionsToRest(drizzleOver(this.local(route)));
  }

  /** What `ls` reads until the next holder (resting-file.ts); without it, `ls` opens the database. */
  private leaveAtRest(value: unknown): void {
    try {
      writeResting(this.options.dataDir, restingKey(), value);
    } catch {
      // A full disk, say: the next `ls` opens the database.
    }
  }

  /** Detached: it outlives this process, and takes the lock only if nobody took it in between. */
  private startWarmHolder(lingerMs: number): void {
    const child = spawn(process.execPath, [warmHolderScript, this.options.dataDir, String(lingerMs)], {
      detached: true,
      stdio: "ignore",
      cwd: "/",
    });
    child.on("error", () => {});
    child.unref();
  }

  private async becomeOwner(socket: string, release: () => void): Promise<Route> {
    const { dataDir } = this.options;
    let pg: PGlite | null = null;
    try {
      // Imported here: a process that only talks to a holder never loads PGlite.
      const { startPglite } = await import("./pglite-start.js");
      // Before Postgres can write anything: no reader may take the last holder's listing for current.
      dropResting(dataDir);
      const existed = holdsDatabase(dataDir);
      pg = await startPglite(dataDir).catch((error: unknown) => {
        throw startFailure(dataDir, error, existed);
      });
      const execute = this.local({ pg });
      // Checked before anything is written to it, migrations included.
      const damage = await findDamage(execute, dataDir);
      if (damage.length && !this.options.allowDamaged) throw new DatabaseDamagedError(dataDir, damage);
      if (!damage.length) {
        await this.options.onOpen(pg);
        await execute(PRUNE_RECEIPTS, [], "object");
      }
      // Without a manifest, the next close writes one even if nothing else is written.
      const owner = { pg, damaged: damage.length > 0, wrote: readManifest(dataDir) === null };
      const subscribe: Subscribe = (channel, onPayload) => pg!.listen(channel, onPayload);
      const server = await serveQueries(socket, this.local(owner), subscribe, this.options.onClients);
      return Object.assign(owner, { kind: "owner" as const, server, release });
    } catch (error) {
      await pg?.close().catch(() => {});
      release();
      throw error;
    }
  }

  /** Queries on this process's PGlite; notes whether anything was written (see close()). */
  private local(route: { pg: PGlite; wrote?: boolean }): Execute {
    return (sql, params, mode) => {
      if (!READ.test(sql)) route.wrote = true;
      return queryPglite(route.pg, sql, params, mode);
    };
  }
}
