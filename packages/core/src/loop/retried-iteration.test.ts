import { describe, expect, it } from "vitest";
import { ModelError } from "../ports/model.js";
import { runFixture } from "../test-support/loop-fixture.js";

// Checklist marks act while the answer streams (the user sees them live), but a stream that breaks
// and is asked again, or a call that fails, is not an answer the loop keeps: none of what it
// streamed may stay behind, in the store, the loop state or a checkpoint.

type Run = Awaited<ReturnType<typeof runFixture>>;
const checklistOf = async (run: Run) =>
  (await run.store.checklist.list(run.session.id)).map((i) => `${i.id}:${i.status}${i.reason ? `:${i.reason}` : ""}`);
const savedChecklist = async (run: Run) =>
  ((await run.store.checkpoints.latest(run.session.id))!.state as { checklist: Array<{ id: string; status: string }> }).checklist.map(
    (i) => `${i.id}:${i.status}`,
  );

describe("a retried or failed answer leaves none of its streamed effects", () => {
  it("keeps only what the answer that succeeded streamed", async () => {
    const run = await runFixture({
      maxIterations: 2,
      turns: [
        { text: "CHECKLIST_ADD:a:first step\nStarting." },
        {
          abandoned: ["CHECKLIST_DONE:a\nCHECKLIST_ADD:x:from the broken stream\n"],
          text: "CHECKLIST_FAILED:a:not this way\nTrying another route.",
        },
      ],
    });
    expect(await checklistOf(run)).toEqual(["a:failed:not this way"]);
    expect(await savedChecklist(run)).toEqual(["a:failed"]);
    // The user saw the broken stream's marks, then the checklist as it was again, then the kept ones.
    const retried = run.events.findIndex((e) => e.type === "model.retry");
    const shown = run.events.slice(retried).find((e) => e.type === "checklist.set");
    expect(shown?.type === "checklist.set" && shown.data.items.map((i) => `${i.id}:${i.status}`)).toEqual(["a:pending"]);
  });

  it("applies a mark streamed again by the retry once, from the retry", async () => {
    const run = await runFixture({
      maxIterations: 2,
      turns: [
        { text: "CHECKLIST_ADD:a:first step\nCHECKLIST_ADD:b:second step\n" },
        { abandoned: ["CHECKLIST_DONE:a\n"], text: "CHECKLIST_DONE:b\nDone with b." },
      ],
    });
    expect(await checklistOf(run)).toEqual(["a:pending", "b:done"]);
    expect(await savedChecklist(run)).toEqual(["a:pending", "b:done"]);
  });

  it("drops what a failed call streamed: the failure checkpoint and the resumed run do not see it", async () => {
    const failed = await runFixture({
      maxIterations: 5,
      turns: [
        { text: "CHECKLIST_ADD:a:first step\nStarting." },
        { abandoned: ["CHECKLIST_DONE:a\n"], error: new ModelError("overloaded_error: Overloaded", 529) },
      ],
    });
    expect(failed.outcome.status).toBe("failed");
    expect(await checklistOf(failed)).toEqual(["a:pending"]);
    expect(await savedChecklist(failed)).toEqual(["a:pending"]);
    const resumed = await runFixture({ store: failed.store, maxIterations: 5, turns: [{ text: "Looking again." }] });
    expect(await checklistOf(resumed)).toEqual(["a:pending"]);
  });
});
