import { createConnection, createServer, type Socket } from "node:net";
import { chmodSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { errorMessage } from "@hatloop/context";
import { ensureOwnerOnlyDir } from "./owner-only.js";

// A tiny query protocol over a unix socket: one JSON object per line. The process holding the PGlite
// directory runs the server; every other hatloop process sends its SQL here instead of opening the
// directory itself. PGlite executes one query at a time, so requests from several clients and the
// owner's own queries never interleave inside a statement. The socket runs any SQL, so only this
// user may connect: it is 0600 inside a 0700 directory of the user's own. A client may also LISTEN
// on a channel: the holder's PGlite listens for it and each NOTIFY is pushed down the socket, which
// is how a watcher learns of new events at once instead of polling.

export type RowMode = "array" | "object";
export type Execute = (sql: string, params: unknown[], mode: RowMode) => Promise<unknown[]>;
/** LISTEN on a channel; resolves with the function that stops listening. */
export type Subscribe = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

type Request =
  { id: number; sql: string; params: unknown[]; mode: RowMode } | { id: number; listen: string } | { id: number; unlisten: string };

type Response = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };
interface Notification {
  notify: string;
  payload: string;
}

/**
 * When the holder closes while clients listen, it keeps answering until they have been quiet this
 * long (at most CLOSING_GRACE_MS): a watcher told of the last events still gets to read them from
 * this holder, rather than waiting for the next one to start.
 */
const QUIET_MS = 50;
const CLOSING_GRACE_MS = 1_000;

export interface QueryServer {
  /** Stops serving: new requests are told to go elsewhere, requests already running finish first. */
  close(): Promise<void>;
}

/** Code of the reply to a request that arrived while the owner was closing: it did not run. */
const OWNER_CLOSING = "HATLOOP_OWNER_CLOSING";

/** `onClients` is told how many clients are connected, whenever that changes. */
export async function serveQueries(
  socketPath: string,
  execute: Execute,
  subscribe: Subscribe,
  onClients: (count: number) => void = () => {},
): Promise<QueryServer> {
  ensureOwnerOnlyDir(dirname(socketPath));
  rmSync(socketPath, { force: true });
  const sockets = new Set<Socket>();
  const listening = new Map<Socket, Map<string, () => Promise<void>>>();
  let running = 0;
  let closing = false;
  let lastActivity = 0;
  let drained: (() => void) | null = null;
  const server = createServer((socket) => {
    sockets.add(socket);
    onClients(sockets.size);
    socket.setNoDelay(true);
    // Clients must not keep the owner alive: it exits when its own command is done.
    socket.unref();
    socket.on("close", () => {
      sockets.delete(socket);
      onClients(sockets.size);
      for (const stop of listening.get(socket)?.values() ?? []) void stop().catch(() => {});
      listening.delete(socket);
    });
    socket.on("error", () => socket.destroy());
    const send = (message: Response | Notification) => {
      if (socket.writable) socket.write(`${JSON.stringify(message)}\n`);
    };
    readLines(socket, async (line) => {
      const request = JSON.parse(line) as Request;
      lastActivity = Date.now();
      if (!("sql" in request)) return send(await changeListening(socket, request));
      let response: Response;
      if (closing) {
        response = { id: request.id, error: { message: "the database owner is closing", code: OWNER_CLOSING } };
      } else {
        running++;
        try {
          response = { id: request.id, rows: await execute(request.sql, request.params, request.mode) };
        } catch (error) {
          const e = error as { message?: string; code?: string };
          response = { id: request.id, error: { message: e.message ?? String(error), code: e.code } };
        } finally {
          running--;
          if (running === 0) drained?.();
        }
      }
      send(response);
    });
  });

  async function changeListening(
    socket: Socket,
    request: { id: number; listen: string } | { id: number; unlisten: string },
  ): Promise<Response> {
    const channels = listening.get(socket) ?? new Map<string, () => Promise<void>>();
    listening.set(socket, channels);
    try {
      if ("listen" in request && !channels.has(request.listen)) {
        const channel = request.listen;
        channels.set(
          channel,
          await subscribe(channel, (payload) => {
            lastActivity = Date.now();
            if (socket.writable) socket.write(`${JSON.stringify({ notify: channel, payload } satisfies Notification)}\n`);
          }),
        );
      } else if ("unlisten" in request) {
        await channels.get(request.unlisten)?.();
        channels.delete(request.unlisten);
      }
      return { id: request.id, rows: [] };
    } catch (error) {
      return { id: request.id, error: { message: errorMessage(error) } };
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  server.unref();
  return {
    async close() {
      const deadline = Date.now() + CLOSING_GRACE_MS;
      while (listening.size > 0 && Date.now() - lastActivity < QUIET_MS && Date.now() < deadline) await sleep(10);
      closing = true;
      server.close();
      if (running > 0) await new Promise<void>((resolve) => (drained = resolve));
      // Let replies and late "closing" answers flush before the sockets go.
      await sleep(20);
      for (const socket of sockets) socket.end();
      rmSync(socketPath, { force: true });
    },
  };
}

/** Raised when the owner cannot be reached. `sent` tells whether the query may have run. */
export class OwnerUnreachableError extends Error {
  constructor(
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

class QueryError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export class BrokerClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, (payload: string) => void>();
  private closed = false;
  /** Called once when the connection to the owner is gone. */
  onClose: (() => void) | null = null;

  private constructor(private readonly socket: Socket) {
    readLines(socket, (line) => {
      const message = JSON.parse(line) as Response | Notification;
      if ("notify" in message) return this.listeners.get(message.notify)?.(message.payload);
      const response = message;
      const waiter = this.pending.get(response.id);
      if (!waiter) return;
      this.pending.delete(response.id);
      if ("error" in response && response.error.code === OWNER_CLOSING)
        waiter.reject(new OwnerUnreachableError(response.error.message, false));
      else if ("error" in response) waiter.reject(new QueryError(response.error.message, response.error.code));
      else waiter.resolve(response.rows);
    });
    const fail = () => {
      if (!this.closed) queueMicrotask(() => this.onClose?.());
      this.closed = true;
      for (const waiter of this.pending.values()) waiter.reject(new OwnerUnreachableError("the database owner went away", true));
      this.pending.clear();
    };
    socket.on("close", fail);
    socket.on("error", fail);
  }

  static connect(socketPath: string): Promise<BrokerClient> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(socketPath);
      socket.once("connect", () => {
        socket.setNoDelay(true);
        socket.unref();
        resolve(new BrokerClient(socket));
      });
      socket.once("error", (error) => reject(new OwnerUnreachableError(error.message, false)));
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  query(sql: string, params: unknown[], mode: RowMode): Promise<unknown[]> {
    return this.request({ sql, params, mode });
  }

  /** The owner pushes each NOTIFY on `channel` to `onPayload` until `unlisten`; one listener per channel. */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<void> {
    this.listeners.set(channel, onPayload);
    await this.request({ listen: channel });
  }

  async unlisten(channel: string): Promise<void> {
    this.listeners.delete(channel);
    if (!this.closed) await this.request({ unlisten: channel });
  }

  private request(body: { sql: string; params: unknown[]; mode: RowMode } | { listen: string } | { unlisten: string }): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new OwnerUnreachableError("the database owner went away", false));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Keep the process alive only while a request is in flight.
      this.socket.ref();
      this.socket.write(`${JSON.stringify({ id, ...body } satisfies Request)}\n`);
    }).finally(() => {
      if (this.pending.size === 0) this.socket.unref();
    }) as Promise<unknown[]>;
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

function readLines(socket: Socket, onLine: (line: string) => void | Promise<void>): void {
  let buffer = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line) void onLine(line);
      newline = buffer.indexOf("\n");
    }
  });
}
