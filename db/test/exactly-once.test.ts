import { PGlite } from "@electric-sql/pglite";
import { DrizzleQueryError } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pg-proxy";
import { afterEach, describe, expect, it } from "vitest";
import type { Execute } from "../src/embedded/broker.js";
import { OwnerUnreachableError } from "../src/embedded/broker.js";
import { queryPglite } from "../src/embedded/pglite-query.js";
import { connectionFailure, QueryTimeoutError } from "../src/resilience/classify.js";
import { OutageMonitor, type OutageReport } from "../src/resilience/outage.js";
import { resilientQuery } from "../src/resilience/resilient-query.js";
import { schema } from "../src/schema.js";
import { createStore } from "../src/store.js";
import { pgliteTemplate } from "../src/testing.js";
import { newSession } from "./support/session.js";

// A write whose connection breaks may have committed or not; its retry must not apply it twice.
// Played deterministically: the statement runs for real, then its "connection" fails.

const pgs: PGlite[] = [];
afterEach(async () => {
  for (const pg of pgs.splice(0)) await pg.close();
});

type Fault = "after-commit" | "before-sending" | null;

async function flakyStore() {
  const pg = await PGlite.create({ loadDataDir: await pgliteTemplate() });
  pgs.push(pg);
  const faults: Fault[] = [];
  const attempted = new Set<unknown>();
  const execute: Execute = async (sql, params, mode) => {
    // The next fault hits the first attempt of a write (a retry carries the same receipt id, last).
    const firstAttempt = /^\s*with hatloop_/.test(sql) && !attempted.has(params.at(-1));
    attempted.add(params.at(-1));
    const fault = firstAttempt ? (faults.shift() ?? null) : null;
    if (fault === "before-sending") throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const rows = await queryPglite(pg, sql, params, mode);
    if (fault === "after-commit") throw Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), { code: "CONNECTION_CLOSED" });
    return rows;
  };
  const reports: OutageReport[] = [];
  const monitor = new OutageMonitor("127.0.0.1:5432", { outageTimeoutMs: 60_000, onOutage: (r) => reports.push(r), sleep: async () => {} });
  const query = resilientQuery(execute, monitor);
  const db = drizzle(async (sql, params, method) => ({ rows: await query(sql, params, method === "all" ? "array" : "object") }), {
    schema,
    casing: "snake_case",
  });
  const store = createStore({ db, driver: "pglite", location: "memory://", role: () => "owner", close: async () => {} });
  await store.sessions.create(newSession({ id: "s1" }));
  return { store, faults, reports };
}

const checkpoint = {
  reason: "interval" as const,
  iteration: 3,
  hat: "planner",
  scratchpad: "notes",
  context: { ranges: [[1, 4]] },
  contextTokens: 1200,
  lastError: null,
  failedAt: null,
  recoveryHint: null,
  usage: { inputTokens: 1 },
  state: { checklist: [] },
  handoff: null,
  gitCommit: "abc",
};

describe("writes retried after a broken connection", () => {
  it("applies a write that committed before its connection broke exactly once, and returns what it returned", async () => {
    const { store, faults, reports } = await flakyStore();
    faults.push("after-commit", "after-commit", "after-commit", "after-commit");
    await store.events.append("s1", [{ iteration: 1, type: "once", payload: { n: 1 } }]);
    const saved = await store.checkpoints.append("s1", checkpoint);
    await store.sessions.addUsage("s1", { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, 0.5);
    await store.messages.append("s1", [
      {
        seq: 1,
        iteration: 1,
        hat: "planner",
        kind: "conversation",
        tokenEstimate: 3,
        message: { role: "user", content: [{ type: "text", text: "hi" }] },
      },
    ]);
    expect(faults).toEqual([]);
    expect((await store.events.tail("s1", 10)).map((e) => e.type)).toEqual(["once"]);
    expect(saved).toEqual(await store.checkpoints.latest("s1"));
    expect(saved).toMatchObject({ seq: 1, scratchpad: "notes", context: { ranges: [[1, 4]] } });
    expect(saved.createdAt).toBeInstanceOf(Date);
    expect((await store.checkpoints.list("s1")).length).toBe(1);
    expect((await store.sessions.get("s1"))?.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(await store.messages.count("s1")).toBe(1);
    expect(reports.map((r) => r.state)).toEqual([
      "unreachable",
      "reachable",
      "unreachable",
      "reachable",
      "unreachable",
      "reachable",
      "unreachable",
      "reachable",
    ]);
  });

  it("applies a write that never reached the server once, on the retry", async () => {
    const { store, faults } = await flakyStore();
    faults.push("before-sending", "before-sending");
    await store.events.append("s1", [{ iteration: 1, type: "later", payload: {} }]);
    expect((await store.events.tail("s1", 10)).map((e) => e.type)).toEqual(["later"]);
  });

  it("still refuses a duplicate that is not its own retry", async () => {
    const { store } = await flakyStore();
    const message = {
      seq: 1,
      iteration: 1,
      hat: "planner",
      kind: "conversation" as const,
      tokenEstimate: 3,
      message: { role: "user" as const, content: [{ type: "text" as const, text: "hi" }] },
    };
    await store.messages.append("s1", [message]);
    await expect(store.messages.append("s1", [message])).rejects.toThrow(/Failed query/);
  });
});

describe("connection failures versus SQL errors", () => {
  const wrapped = (cause: unknown) => new DrizzleQueryError("select 1", [], cause as Error);

  it.each([
    [{ code: "ECONNREFUSED" }, "connection refused", false],
    [{ code: "ECONNRESET" }, "connection reset", true],
    [{ code: "CONNECTION_CLOSED" }, "connection closed", true],
    [{ code: "CONNECT_TIMEOUT" }, "connect timeout", false],
    [{ code: "57P01" }, "server shutting down: 57P01 admin_shutdown", true],
    [{ code: "57P03" }, "server starting or shutting down: 57P03 cannot_connect_now", false],
    [{ code: "08006" }, "connection failure: 08006", true],
    [new QueryTimeoutError(30_000), "no answer in 30s", true],
    [new OwnerUnreachableError("gone", true), "the process holding it went away", true],
  ])("%o is a connection failure, also wrapped by drizzle", (error: object, cause, mayHaveRun) => {
    expect(connectionFailure(wrapped(error instanceof Error ? error : Object.assign(new Error("x"), error)))).toMatchObject({
      cause,
      mayHaveRun,
    });
  });

  it("dates a timeout's outage from when the query was sent", () => {
    expect(connectionFailure(new QueryTimeoutError(30_000))?.beganMsAgo).toBe(30_000);
  });

  it.each(["23505", "42P01", "22P02", "HL001", "57014"])("SQLSTATE %s is an SQL error: never retried", (code) => {
    expect(connectionFailure(wrapped(Object.assign(new Error("x"), { code })))).toBeNull();
  });
});
