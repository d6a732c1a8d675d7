import { describe, expect, it } from "vitest";
import { memoryStore } from "../store/memory-store.js";
import { runFixture } from "../test-support/loop-fixture.js";

// A budget raised from outside the run (the web console, the API) while the run goes on is taken
// when the old limit is reached: the run goes on instead of pausing there.

describe("a budget raised while the run goes on", () => {
  it("is read again at the old limit, and the run stops only at the new one", async () => {
    const store = memoryStore();
    const raise = async () => {
      const session = (await store.sessions.get("s-0000-1111"))!;
      await store.sessions.update(session.id, { budgets: { ...session.budgets, maxIterations: 4 } });
    };
    const run = await runFixture({
      store,
      createSession: true,
      maxIterations: 2,
      turns: [{ text: "one" }, { text: "two", before: () => void raise() }, { text: "three" }, { text: "four" }],
    });
    expect(run.outcome.reason).toBe("budget:iterations");
    expect(run.session.iteration).toBe(4);
    expect(run.of("budget.exceeded").map((e) => e.data.limit)).toEqual([4]);
  });
});
