import { createConnection, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresClient } from "../src/postgres-client.js";

// A connection that closes just as its first query goes out: what a server stopping a moment after
// accepting a connection does. postgres.js then used to crash the process: by default the first query
// on every new connection is its own array-types query, whose failure nobody can catch
// (porsager/postgres#1192, #1205, #1223; seen here as a `hatloop run` dying with "write
// CONNECTION_CLOSED" during a Postgres outage). Only the query hatloop sent may fail, and it does.

const target = process.env.HATLOOP_TEST_DATABASE_URL;

/**
 * A TCP proxy to the server that forwards the client's startup message, then closes both sides at
 * the client's next message (with trust auth, nothing is exchanged in between: that is the first query).
 */
function cutAtFirstQuery(url: URL): Promise<Server> {
  const server = createServer((client: Socket) => {
    const upstream = createConnection(Number(url.port || 5432), url.hostname);
    let chunks = 0;
    client.on("data", (data) => {
      if (++chunks === 1) upstream.write(data);
      else {
        upstream.destroy();
        client.destroy();
      }
    });
    upstream.on("data", (data) => client.write(data));
    for (const socket of [client, upstream]) socket.on("error", () => {});
    upstream.on("close", () => client.destroy());
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("a Postgres connection cut as its first query goes out", { tags: ["postgres"] }, () => {
  let proxy: Server;
  let proxied: string;

  beforeAll(async () => {
    const url = new URL(target!);
    proxy = await cutAtFirstQuery(url);
    const address = proxy.address();
    if (!address || typeof address === "string") throw new Error("the proxy has no port");
    proxied = `postgres://${url.username}@127.0.0.1:${address.port}${url.pathname}`;
  });

  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it("fails that query and nothing else: no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    const client = postgresClient(proxied, 5_000);
    try {
      await expect(client.execute("select 1", [], "array")).rejects.toThrow(/CONNECTION_CLOSED/);
      // A rejection nobody handles is reported after the microtasks of the tick it happened in.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
      await client.close().catch(() => {});
    }
  });
});
