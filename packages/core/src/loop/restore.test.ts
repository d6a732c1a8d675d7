import { describe, expect, it } from "vitest";
import { runFixture } from "../test-support/loop-fixture.js";

// A session killed before its first checkpoint has only its log. Found by the chaos test: the
// session row lags the log (it is updated at the end of an iteration), so resume must take the
// iteration from the messages, or it answers an iteration twice.

describe("resume from the log alone", () => {
  it("continues after the last stored iteration, not the row's, and writes a checkpoint at once", async () => {
    const first = await runFixture({
      maxIterations: 2,
      turns: [{ tools: [{ name: "read_file", input: { path: "a" } }] }, { tools: [{ name: "read_file", input: { path: "b" } }] }],
    });
    const store = first.store;
    const id = first.session.id;
    // As if killed in iteration 2 right after its answer was stored: no results, no row update, no checkpoints.
    store.data.messages.set(id, store.data.messages.get(id)!.slice(0, 4));
    store.data.checkpoints.set(id, []);
    await store.sessions.update(id, { iteration: 1, status: "running" });

    const resumed = await runFixture({ store, maxIterations: 3, turns: [{ text: "carrying on" }] });
    expect(resumed.outcome.reason).toBe("budget:iterations");
    const log = resumed.messages.map((m) => `${m.seq}@${m.iteration}:${m.message.role}`);
    expect(log).toEqual(["1@0:user", "2@1:assistant", "3@1:user", "4@2:assistant", "5@2:user", "6@3:assistant", "7@3:user"]);
    expect(resumed.of("checkpoint.saved")[0]?.data.reason).toBe("start");
  });
});

describe("resume after completion", () => {
  it("records completion without a model turn when killed after the completion checkpoint, before the row said so", async () => {
    const done = await runFixture({
      session: { hat: "editor" },
      turns: [{ tools: [{ name: "task_complete", input: { summary: "done" } }] }],
    });
    expect(done.outcome.status).toBe("completed");
    const store = done.store;
    await store.sessions.update(done.session.id, { status: "running" }); // the row update never happened
    const resumed = await runFixture({ store, turns: [] }); // a model call would exhaust the script
    expect(resumed.outcome).toMatchObject({ status: "completed", exitCode: 0 });
    expect(resumed.of("model.request")).toEqual([]);
  });
});
