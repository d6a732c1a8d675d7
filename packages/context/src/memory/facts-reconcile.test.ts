import { describe, expect, it } from "vitest";
import type { ExistingFact, FactCandidate } from "./facts-types.js";
import { reconcileFacts } from "./facts-reconcile.js";

const stored = (id: number, key: string | null, content: string, type = "config"): ExistingFact => ({ id, key, type, content });
const candidate = (key: string, content: string, seq = 0, type: FactCandidate["type"] = "config"): FactCandidate => ({
  key,
  type,
  content,
  seq,
});

describe("reconcileFacts", () => {
  it("ADD: a fact about a new subject", () => {
    const ops = reconcileFacts([stored(1, "api-port", "The API port is 3000")], [candidate("db-host", "The DB host is db.local")]);
    expect(ops).toEqual([{ op: "ADD", fact: candidate("db-host", "The DB host is db.local") }]);
  });

  it("UPDATE: same key with a more detailed value", () => {
    const ops = reconcileFacts(
      [stored(1, "api-port", "The API port is 3000")],
      [candidate("api-port", "The API port is 3000 (HTTP only, TLS ends at the proxy)")],
    );
    expect(ops).toEqual([
      {
        op: "UPDATE",
        id: 1,
        previous: "The API port is 3000",
        fact: candidate("api-port", "The API port is 3000 (HTTP only, TLS ends at the proxy)"),
      },
    ]);
  });

  it("SUPERSEDE: same key with a contradicting value keeps the old id for marking", () => {
    const ops = reconcileFacts([stored(1, "api-port", "The API port is 3000")], [candidate("api-port", "API_PORT=30000")]);
    expect(ops).toEqual([{ op: "SUPERSEDE", id: 1, previous: "The API port is 3000", fact: candidate("api-port", "API_PORT=30000") }]);
  });

  it("SUPERSEDE: a rule that flips polarity", () => {
    const ops = reconcileFacts(
      [stored(4, null, "Never commit directly to main", "constraint")],
      [candidate("rule:commit-directly-main", "Always commit directly to main", 0, "constraint")],
    );
    expect(ops.map((o) => o.op)).toEqual(["SUPERSEDE"]);
  });

  it("NONE: the same fact again, reworded formatting or less detail", () => {
    const existing = [stored(1, "api-port", "The API port is 3000 (HTTP only)")];
    expect(reconcileFacts(existing, [candidate("api-port", "the api port is 3000 (http only).")])[0]).toMatchObject({
      op: "NONE",
      reason: "duplicate",
      id: 1,
    });
    expect(reconcileFacts(existing, [candidate("api-port", "The API port is 3000")])[0]).toMatchObject({ op: "NONE", id: 1 });
  });

  it("NONE: a note that says what a stored fact under another key already says", () => {
    const ops = reconcileFacts(
      [stored(9, "note:a", "Vitest runs with globals disabled in this repo", "convention")],
      [candidate("note:b", "In this repo vitest runs with globals disabled", 0, "convention")],
    );
    expect(ops).toEqual([
      {
        op: "NONE",
        fact: candidate("note:b", "In this repo vitest runs with globals disabled", 0, "convention"),
        reason: "duplicate",
        id: 9,
      },
    ]);
  });

  it("derives keys for stored rows written without one", () => {
    const ops = reconcileFacts([stored(2, null, "The API port is 3000")], [candidate("api-port", "API_PORT=4000")]);
    expect(ops[0]).toMatchObject({ op: "SUPERSEDE", id: 2 });
  });

  it("within a batch the later candidate for a key wins; the earlier one is outdated", () => {
    const ops = reconcileFacts([], [candidate("api-port", "The API port is 3000", 1), candidate("api-port", "The API port is 4000", 2)]);
    expect(ops).toEqual([
      { op: "ADD", fact: candidate("api-port", "The API port is 4000", 2) },
      { op: "NONE", fact: candidate("api-port", "The API port is 3000", 1), reason: "outdated-in-batch", id: null },
    ]);
  });

  it("is independent of input order, including ties on seq", () => {
    const existing = [
      stored(1, "api-port", "The API port is 3000"),
      stored(2, "db-host", "The DB host is db.local"),
      stored(3, "note:x", "Use tabs"),
    ];
    const candidates = [
      candidate("api-port", "The API port is 4000", 5),
      candidate("api-port", "The API port is 5000", 5),
      candidate("db-host", "The DB host is db.local (read replica at db-ro.local)", 1),
      candidate("cache-ttl", "The cache TTL is 60s", 2),
      candidate("note:y", "Prefer small files", 3, "convention"),
    ];
    const expected = reconcileFacts(existing, candidates);
    const permutations = [[...candidates].reverse(), [candidates[2]!, candidates[0]!, candidates[4]!, candidates[1]!, candidates[3]!]];
    for (const order of permutations) {
      expect(reconcileFacts([...existing].reverse(), order)).toEqual(expected);
    }
    expect(expected.map((o) => `${o.op}:${o.fact.content}`)).toEqual([
      "SUPERSEDE:The API port is 5000",
      "NONE:The API port is 4000",
      "ADD:The cache TTL is 60s",
      "UPDATE:The DB host is db.local (read replica at db-ro.local)",
      "ADD:Prefer small files",
    ]);
  });

  it("does not mutate its inputs", () => {
    const existing = Object.freeze([Object.freeze(stored(1, "api-port", "The API port is 3000"))]);
    const candidates = Object.freeze([Object.freeze(candidate(" API-PORT ", " The API port is 4000 "))]);
    expect(() => reconcileFacts(existing, candidates)).not.toThrow();
    expect(candidates[0]!.key).toBe(" API-PORT ");
  });
});
