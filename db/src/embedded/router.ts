import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { brokerSocketPath } from "../paths.js";
import { PRUNE_RECEIPTS } from "../resilience/receipts.js";
import { BrokerClient, OwnerUnreachableError, serveQueries, type Execute, type QueryServer, type RowMode } from "./broker.js";
import { DatabaseDamagedError, findDamage, findDamageDeeply } from "./damage.js";
import { acquireLock, isAlive, processStart } from "./lock.js";
import { readManifest, writeManifest } from "./manifest.js";
import { queryPglite } from "./pglite-query.js";

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
}

type Route =
  | { kind: "owner"; pg: PGlite; server: QueryServer; release: () => void; damaged: boolean; wrote: boolean }
  | { kind: "client"; client: BrokerClient };

/** Statements that write nothing (hatloop's reads all start so). */
const READ = /^\s*select\s/i;

/** About 20 s of retries while a departing owner hands the directory over. */
const MAX_ATTEMPTS = 110;

export class EmbeddedRouter {
  private route: Route | null = null;
  private connecting: Promise<Route> | null = null;
  private closed = false;

  constructor(private readonly options: EmbeddedOptions) {}

  get role(): "owner" | "client" | "closed" {
    return this.route?.kind ?? "closed";
  }

  async query(sql: string, params: unknown[], mode: RowMode): Promise<unknown[]> {
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
        await new Promise((r) => setTimeout(r, Math.min(20 * attempt, 200)));
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const route = this.route ?? (this.connecting ? await this.connecting.catch(() => null) : null);
    this.route = null;
    if (!route) return;
    if (route.kind === "client") return route.client.close();
    await route.server.close();
    // Reads change no file size; a damaged directory keeps the manifest that shows the damage.
    if (route.wrote && !route.damaged) await writeManifest(this.local(route), this.options.dataDir).catch(() => {});
    await route.pg.close();
    route.release();
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
      });
      if (lock.kind === "acquired") {
        this.route = await this.becomeOwner(socket, lock.release);
        return this.route;
      }
      const owner = lock.owner;
      if (owner && owner.pid !== process.pid) {
        try {
          const client = await BrokerClient.connect(owner.socket);
          this.route = { kind: "client", client };
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
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async becomeOwner(socket: string, release: () => void): Promise<Route> {
    const { dataDir } = this.options;
    let pg: PGlite | null = null;
    try {
      pg = await PGlite.create(dataDir);
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
      const server = await serveQueries(socket, this.local(owner));
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
