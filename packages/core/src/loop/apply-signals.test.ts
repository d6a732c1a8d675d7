import { describe, expect, it } from "vitest";
import { runFixture, type Turn } from "../test-support/loop-fixture.js";

// Every update in a response applies, in the order written: one that made progress must not make
// the loop skip the ones after it, and a streamed signal must see the ones before it.

const checklistOf = async (run: Awaited<ReturnType<typeof runFixture>>) =>
  (await run.store.checklist.list(run.session.id)).map((i) => `${i.id}:${i.status}${i.reason ? `:${i.reason}` : ""}`);

describe("signals in one response", () => {
  it("update_checklist adds every item it lists", async () => {
    const add = {
      add: [
        { id: "a", description: "first" },
        { id: "b", description: "second" },
        { id: "c", description: "third" },
      ],
    };
    const run = await runFixture({ maxIterations: 1, turns: [{ tools: [{ name: "update_checklist", input: add }] }] });
    expect(await checklistOf(run)).toEqual(["a:pending", "b:pending", "c:pending"]);
  });

  it("a scratchpad update after a checklist update still applies", async () => {
    const turn: Turn = {
      tools: [
        { name: "update_checklist", input: { add: [{ id: "a", description: "first" }] } },
        { name: "update_scratchpad", input: { content: "## Current Plan\n1. [ ] a" } },
      ],
    };
    const run = await runFixture({ maxIterations: 1, turns: [turn] });
    expect(await checklistOf(run)).toEqual(["a:pending"]);
    expect(run.session.scratchpad).toContain("1. [ ] a");
  });

  it("CHECKLIST_ADD then CHECKLIST_FAILED for the same item both apply while streaming", async () => {
    const run = await runFixture({
      maxIterations: 1,
      turns: [{ text: "CHECKLIST_ADD:x:try the cache\nCHECKLIST_FAILED:x:cache is read-only\nmore" }],
    });
    expect(await checklistOf(run)).toEqual(["x:failed:cache is read-only"]);
    expect(run.of("signal.checklist").map((e) => e.data.known)).toEqual([true]);
  });

  it("marks on one item apply in order, repeats included", async () => {
    const text = "CHECKLIST_ADD:1:parser\nCHECKLIST_DONE:1\nCHECKLIST_FAILED:1:flaky after all\nCHECKLIST_DONE:1";
    const run = await runFixture({ maxIterations: 1, turns: [{ text }] });
    expect(await checklistOf(run)).toEqual(["1:done"]);
    expect(run.of("signal.checklist").map((e) => e.data.status)).toEqual(["done", "failed", "done"]);
  });
});
