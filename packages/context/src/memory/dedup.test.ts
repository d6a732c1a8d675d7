import { describe, expect, it } from "vitest";
import { extractKeywords, isSemanticDuplicate, normalizeForDedup, STOP_WORDS } from "./dedup.js";

describe("normalizeForDedup", () => {
  it("strips bullets, numbering, checkboxes, markdown and whitespace, and lowercases", () => {
    expect(normalizeForDedup("- **Use**  `pnpm`\n workspaces.")).toBe("use pnpm workspaces");
    expect(normalizeForDedup("1. Use pnpm workspaces")).toBe("use pnpm workspaces");
    expect(normalizeForDedup("* [ ] Use pnpm workspaces;")).toBe("use pnpm workspaces");
  });
});

describe("extractKeywords", () => {
  it("drops stop words and words shorter than three characters", () => {
    expect([...extractKeywords("We should use the cache for reads, not the DB")].sort()).toEqual(["cache", "reads", "use"]);
  });

  it("filters Serbian stop words", () => {
    expect(STOP_WORDS.has("treba")).toBe(true);
    expect([...extractKeywords("Treba da pošaljem plan za klijenta")].sort()).toEqual(["klijenta", "plan", "pošaljem"]);
  });
});

describe("isSemanticDuplicate", () => {
  it("tier 1: matches items that differ only in formatting", () => {
    expect(isSemanticDuplicate("- **Use** `atomicWriteFile` for checkpoints", "Use atomicWriteFile for checkpoints.")).toBe(true);
    expect(isSemanticDuplicate("1. Run the migrations", "* run   the migrations")).toBe(true);
  });

  it("tier 2: keyword overlap at or above 0.5 is a duplicate", () => {
    // {send, grigorije, plan} vs {send, him, plan}: 2 / 4 = 0.5
    expect(isSemanticDuplicate("Send Grigorije a plan", "- I need to send him a plan")).toBe(true);
    expect(
      isSemanticDuplicate("Switch the checkpoint writer to atomic renames", "checkpoint writer should switch to atomic renames now"),
    ).toBe(true);
  });

  it("tier 2: keyword overlap below 0.5 is not a duplicate", () => {
    // {add, retry, logic, model, client} vs {add, logging, model, client, errors}: 3 / 7
    expect(isSemanticDuplicate("Add retry logic to the model client", "Add logging to the model client errors")).toBe(false);
  });

  it("tier 3: a shorter text of 10+ characters contained in the longer one is a duplicate", () => {
    expect(isSemanticDuplicate("fix flaky test", "fix flaky test in the parser suite by seeding the random generator")).toBe(true);
  });

  it("tier 3: containment needs at least 10 characters", () => {
    expect(isSemanticDuplicate("fix it", "fix it later when the release is out and the branch is merged")).toBe(false);
  });

  it("cardinality guard: fewer than three keywords in the union skip Jaccard", () => {
    // {deploy, staging} vs {deploy}: union 2, Jaccard would be 0.5, but the guard skips it;
    // "deploy" is too short for containment, so they are not duplicates.
    expect(isSemanticDuplicate("deploy staging", "deploy")).toBe(false);
    expect(isSemanticDuplicate("deploy now", "deploy later")).toBe(false);
  });

  it("keeps genuinely different items that share vocabulary", () => {
    expect(isSemanticDuplicate("Use Postgres for the session store", "Use Redis for the rate limiter store")).toBe(false);
    expect(isSemanticDuplicate("Add tests for the YAML renderer", "Add tests for the resume packet trimming")).toBe(false);
  });

  it("is symmetric", () => {
    const pairs: Array<[string, string]> = [
      ["Send Grigorije a plan", "- I need to send him a plan"],
      ["fix flaky test", "fix flaky test in the parser suite"],
      ["Add retry logic to the model client", "Add logging to the model client errors"],
      ["deploy staging", "deploy"],
    ];
    for (const [a, b] of pairs) expect(isSemanticDuplicate(a, b)).toBe(isSemanticDuplicate(b, a));
  });

  it("never treats two empty items as duplicates of each other", () => {
    expect(isSemanticDuplicate("", "  ")).toBe(false);
  });
});
