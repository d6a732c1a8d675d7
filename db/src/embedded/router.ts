import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { brokerSocketPath } from "../paths.js";
import { acquireLock, isAlive } from "./lock.js";
import { queryPglite } from "./pglite-query.js";
import { BrokerClient, OwnerUnreachableError, serveQueries, type QueryServer, type RowMode } from "./broker.js";

// Routes every query of this process to the PGlite directory: directly when this process holds it,
// through the holder's socket otherwise. When the holder exits, the next query promotes this process
// to holder (or to a client of whoever promoted first), so watchers outlive the loop they watch.

export interface EmbeddedOptions {
  dataDir: string;
  /** Runs once, right after this process opens the directory as its holder. */
  onOpen: (pg: PGlite) => Promise<void>;
  /** How long to wait for a holder that is still starting up. */
  connectTimeoutMs?: number;
}

type Route =
  | { kind: "owner"; pg: PGlite; server: QueryServer; release: () => void }
  | { kind: "client"; client: BrokerClient };

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
      if (route.kind === "owner") return queryPglite(route.pg, sql, params, mode);
      try {
        return await route.client.query(sql, params, mode);
      } catch (error) {
        // A read can always be retried; a write only if it never ran. While the owner closes, its
        // lock is still held: keep trying until it is gone and this process can take over.
        const retriable = error instanceof OwnerUnreachableError && (!error.sent || /^\s*select/i.test(sql));
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
    await route.pg.close();
    route.release();
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
      const lock = acquireLock(lockDir, { pid: process.pid, socket, token: randomUUID(), since: new Date().toISOString() });
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
        const who = owner ? `process ${owner.pid}${isAlive(owner.pid) ? "" : " (gone)"}` : "another process";
        throw new Error(`the embedded database at ${dataDir} is held by ${who} and did not answer; set DATABASE_URL to use Postgres`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async becomeOwner(socket: string, release: () => void): Promise<Route> {
    try {
      const pg = await PGlite.create(this.options.dataDir);
      await this.options.onOpen(pg);
      const server = await serveQueries(socket, (sql, params, mode) => queryPglite(pg, sql, params, mode));
      return { kind: "owner", pg, server, release };
    } catch (error) {
      release();
      throw error;
    }
  }
}
