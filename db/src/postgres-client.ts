import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Execute } from "./embedded/broker.js";
import { CONNECTION_OPTIONS } from "./postgres-options.js";
import { QueryTimeoutError } from "./resilience/classify.js";

// postgres.js under hatloop's query function. A server that stops answering (hung, SIGSTOP, a
// silent network) would hold a query forever: TCP keeps the connection "up". So every query has a
// client-side timeout, and a timeout throws the whole pool away (its connections may all be stuck
// on that server) for a fresh one; the query is then retried like any other connection failure.

export interface PostgresClient {
  execute: Execute;
  /** LISTEN on a dedicated connection (postgres.js re-listens by itself after a reconnect). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export function postgresClient(url: string, queryTimeoutMs: number): PostgresClient {
  const connectTimeout = Math.max(1, Math.ceil(queryTimeoutMs / 1000));
  const connect = () => {
    // backoff 0: postgres.js would otherwise wait up to 20 s before each reconnection, on top of
    // the outage monitor's own backoff.
    const client = postgres(url, { ...CONNECTION_OPTIONS, max: 10, connect_timeout: connectTimeout, backoff: () => 0 });
    // drizzle's postgres.js driver sets its parsers and serializers (timestamps as text, JSON passed
    // through) on the client it is given: rows come back exactly as that driver would map them.
    drizzle({ client });
    return client;
  };
  let pool = connect();
  let listener: postgres.Sql | null = null;

  const execute: Execute = async (sql, params, mode) => {
    const used = pool;
    const query = used.unsafe(sql, params as postgres.ParameterOrJSON<never>[]);
    const running = mode === "array" ? query.values() : query;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new QueryTimeoutError(queryTimeoutMs)), queryTimeoutMs);
    });
    try {
      return (await Promise.race([running, timeout])) as unknown[];
    } catch (error) {
      if (error instanceof QueryTimeoutError && pool === used) {
        running.catch(() => {}); // abandoned: it fails when its connection is destroyed
        pool = connect();
        void used.end({ timeout: 0 }).catch(() => {});
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    execute,
    async listen(channel, onPayload) {
      listener ??= postgres(url, { ...CONNECTION_OPTIONS, max: 1, connect_timeout: connectTimeout });
      // eslint-disable-next-line @typescript-eslint/unbound-method -- postgres.js's unlisten is a closure, not a method that needs its object
      const { unlisten } = await listener.listen(channel, onPayload);
      return unlisten;
    },
    async close() {
      await Promise.all([pool.end({ timeout: 5 }), listener?.end({ timeout: 5 })]);
    },
  };
}
