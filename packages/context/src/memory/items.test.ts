import { describe, expect, it } from "vitest";
import {
  captureDecision,
  captureOpenItem,
  dedupeKeepNewest,
  mergeDecisions,
  mergeOpenItems,
  withoutResolved,
  type DecisionRecord,
} from "./items.js";

const d = (id: string, what: string, when: string | null = null): DecisionRecord => ({ id, what, when });

describe("captureDecision", () => {
  it("appends a new decision with the next id", () => {
    const out = captureDecision([d("d1", "Use pnpm workspaces")], "Store checkpoints as immutable rows", "t2");
    expect(out).toEqual([d("d1", "Use pnpm workspaces"), d("d2", "Store checkpoints as immutable rows", "t2")]);
  });

  it("skips a semantic duplicate at capture time", () => {
    const held = [d("d1", "Use pnpm workspaces for the monorepo")];
    expect(captureDecision(held, "- **Use** pnpm workspaces for the monorepo.", "t2")).toEqual(held);
  });

  it("skips conversational noise and questions", () => {
    expect(captureDecision([], "You're right, I overcomplicated it", null)).toEqual([]);
    expect(captureDecision([], "Should we use Redis?", null)).toEqual([]);
  });

  it("caps the set, dropping the oldest", () => {
    let set: DecisionRecord[] = [];
    const texts = [
      "Use pnpm workspaces",
      "Store checkpoints as rows",
      "Render YAML with block scalars",
      "Redact secrets before persisting",
    ];
    for (const text of texts) set = captureDecision(set, text, null, 3);
    expect(set.map((x) => x.id)).toEqual(["d2", "d3", "d4"]);
  });

  it("does not mutate its input", () => {
    const held = Object.freeze([d("d1", "Use pnpm")]);
    captureDecision(held, "Store checkpoints in Postgres", null);
    expect(held).toHaveLength(1);
  });
});

describe("mergeDecisions", () => {
  it("preserves heuristic decisions that the newer set does not cover", () => {
    const heuristic = [d("d1", "Use atomicWriteFile for checkpoint re-write"), d("d2", "Read lastToolCall from state files")];
    const llm = [{ what: "Use atomicWriteFile for the checkpoint re-write to bypass dedup", when: "t9" }];
    const merged = mergeDecisions(heuristic, llm);
    expect(merged.map((x) => x.what)).toEqual([
      "Read lastToolCall from state files",
      "Use atomicWriteFile for the checkpoint re-write to bypass dedup",
    ]);
  });

  it("keeps the newest wording and the oldest matched id", () => {
    const merged = mergeDecisions([d("d3", "Send Grigorije a plan", "t1")], [{ what: "- I need to send him a plan", when: "t5" }]);
    expect(merged).toEqual([d("d3", "I need to send him a plan", "t5")]);
  });

  it("drops noise left over from old heuristics", () => {
    const merged = mergeDecisions([d("d1", "You're right, I overcomplicated it"), d("d2", "Use vitest")], []);
    expect(merged).toEqual([d("d2", "Use vitest")]);
  });

  it("assigns fresh ids after the highest held id", () => {
    const merged = mergeDecisions([d("d7", "Use vitest for unit tests")], [{ what: "Store facts in the memories table", when: null }]);
    expect(merged.at(-1)?.id).toBe("d8");
  });
});

describe("open items", () => {
  it("capture skips semantic duplicates", () => {
    const items = captureOpenItem(["Send Grigorije a plan"], "- I need to send him a plan");
    expect(items).toEqual(["Send Grigorije a plan"]);
    expect(captureOpenItem(items, "Review the migration")).toEqual(["Send Grigorije a plan", "Review the migration"]);
  });

  it("merge keeps the newest wording and drops duplicates", () => {
    expect(mergeOpenItems(["Send Grigorije a plan", "Review the migration"], ["- I need to send him a plan"])).toEqual([
      "Review the migration",
      "I need to send him a plan",
    ]);
  });

  it("merge caps the set to the newest", () => {
    expect(mergeOpenItems(["Alpha task one", "Bravo task two"], ["Charlie task three"], 2)).toEqual([
      "Bravo task two",
      "Charlie task three",
    ]);
  });

  it("dedupeKeepNewest keeps the later of two duplicates", () => {
    expect(dedupeKeepNewest(["fix flaky test", "Add docs", "Fix flaky test."])).toEqual(["Add docs", "Fix flaky test."]);
  });

  it("withoutResolved removes items covered by resolved ones", () => {
    expect(withoutResolved(["Write the YAML renderer", "Port seed tests"], ["- [x] Write the YAML renderer"])).toEqual(["Port seed tests"]);
  });
});
