import { toolResults, toolUses, type Message } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { LoopControl } from "./control.js";
import { ModelError } from "../ports/model.js";
import { memoryStore } from "../store/memory-store.js";
import { fakeTool, runFixture, type Turn } from "../test-support/loop-fixture.js";

/** Every tool_use answered in the very next message, roles alternating (what the API requires). */
function expectValidTranscript(messages: Array<{ message: Message }>) {
  messages.forEach(({ message }, i) => {
    expect(message.role).toBe(i % 2 === 0 ? "user" : "assistant");
    const uses = toolUses(message).map((u) => u.id);
    if (uses.length) expect(toolResults(messages[i + 1]!.message).map((r) => r.tool_use_id)).toEqual(uses);
  });
}

const happyPath: Turn[] = [
  {
    text: "Planning.\nCHECKLIST_ADD:1:test reproduces the flake\nCHECKLIST_ADD:2:fix makes it pass\nSCRATCHPAD:## Current Plan\n1. [ ] test\n2. [ ] fix",
    tools: [{ name: "read_file", input: { path: "src/auth.test.ts" } }],
  },
  { text: "EVENT:plan.complete two items" },
  { tools: [{ name: "write_file", input: { path: "src/auth.test.ts", content: "x" } }] },
  { text: "CHECKLIST_DONE:1\nCHECKLIST_DONE:2\nEVENT:implementation.done all done" },
  { tools: [{ name: "git_diff" }, { name: "run_command", input: { command: "npm test" } }] },
  { text: "Looks right.\nEVENT:review.approved" },
  { tools: [{ name: "task_complete", input: { summary: "fixed" } }] },
];

describe("runLoop", () => {
  it("runs a task through planner, creator, critic and editor to completion", async () => {
    const run = await runFixture({ turns: happyPath });
    expect(run.outcome).toEqual({ status: "completed", reason: "task complete: quality gates passed", exitCode: 0 });
    expect(run.of("hat.change").map((e) => `${e.data.from}->${e.data.to}`)).toEqual([
      "planner->creator",
      "creator->critic",
      "critic->editor",
    ]);
    expect(run.session).toMatchObject({ status: "completed", iteration: 7, hat: "editor" });
    expect(run.session.scratchpad).toContain("1. [ ] test");
    expect((await run.store.checklist.list(run.session.id)).map((i) => i.status)).toEqual(["done", "done"]);
    expectValidTranscript(run.messages);
    expect(run.of("checkpoint.saved").map((e) => e.data.reason)).toEqual([
      "start",
      "hat-change",
      "hat-change",
      "interval",
      "hat-change",
      "completion",
    ]);
    expect(run.of("gate.result")[0]?.data.passed).toBe(true);
    expect(run.session.costUsd).toBeCloseTo(0.07);
    // The critic was offered no write tools, and the hat change told the model where things stand.
    const criticRequest = run.model.requests[4]!;
    expect(criticRequest.tools.map((t) => t.name)).not.toContain("write_file");
    expect(criticRequest.system[1]).toContain("## Your hat: critic");
    expect(JSON.stringify(run.model.requests[2]!.messages.at(-1))).toContain("Hat change: planner -> creator after plan.complete");
  });

  it("applies checklist signals while the response streams, once", async () => {
    const run = await runFixture({ turns: happyPath.slice(0, 4), maxIterations: 4 });
    const marks = run.of("signal.checklist");
    expect(marks.map((e) => e.data.id)).toEqual(["1", "2"]);
  });

  it("pauses at the iteration budget with a checkpoint, exit code 3", async () => {
    const run = await runFixture({ turns: happyPath, maxIterations: 2 });
    expect(run.outcome).toEqual({ status: "paused", reason: "budget:iterations", exitCode: 3 });
    expect(run.of("budget.exceeded")[0]?.data).toEqual({ budget: "iterations", limit: 2, value: 2 });
    expect(run.of("checkpoint.saved").at(-1)?.data.reason).toBe("budget");
    expect(run.session.status).toBe("paused");
    expectValidTranscript(run.messages);
  });

  it("refuses completion while checklist items are open, until they are acknowledged", async () => {
    const run = await runFixture({
      session: { hat: "editor" },
      turns: [
        { text: "CHECKLIST_ADD:1:one\nCHECKLIST_ADD:2:two\nCHECKLIST_DONE:1", tools: [{ name: "task_complete" }] },
        { text: "CHECKLIST_FAILED:2:not needed after all\nACKNOWLEDGE_FAILURES", tools: [{ name: "task_complete" }] },
      ],
    });
    expect(run.of("completion.refused")[0]?.data.reason).toBe("checklist items not done: 2 (pending)");
    expect(JSON.stringify(run.messages[2]!.message)).toContain("Completion refused");
    expect(run.outcome.status).toBe("completed");
  });

  it("feeds blocked gates back and keeps going", async () => {
    const blocked = {
      passed: false,
      checks: [
        {
          name: "test" as const,
          command: "npm test",
          exitCode: 1,
          passed: false,
          acceptable: false,
          timedOut: false,
          durationMs: 5,
          newFailures: ["FAIL auth"],
          output: "FAIL auth",
        },
      ],
    };
    const run = await runFixture({
      session: { hat: "editor" },
      gates: [blocked],
      turns: [{ tools: [{ name: "task_complete" }] }, { tools: [{ name: "task_complete" }] }],
    });
    expect(run.of("gate.result").map((e) => e.data.passed)).toEqual([false, true]);
    expect(run.outcome.status).toBe("completed");
  });

  it("enforces the hat's tools in the executor, and tells the model", async () => {
    const run = await runFixture({ turns: [{ tools: [{ name: "write_file", input: { path: "a", content: "b" } }] }], maxIterations: 1 });
    const result = toolResults(run.messages[2]!.message)[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/^The write_file tool is not available to the planner hat/);
  });

  it("refuses events the hat does not publish and reports malformed signals to the model", async () => {
    const run = await runFixture({ turns: [{ text: "EVENT:review.approved\nCHECKLIST_DONE:<id>\nMEMORY:gossip:x" }], maxIterations: 1 });
    expect(run.of("route.rejected")[0]?.data.reason).toBe(
      "the planner hat may not publish review.approved (it may publish: plan.complete, design.needed, explore.needed)",
    );
    expect(run.of("signal.malformed").map((e) => e.data.signal)).toEqual(["CHECKLIST_DONE", "MEMORY"]);
    const note = JSON.stringify(run.messages[2]!.message);
    expect(note).toContain("EVENT:review.approved was not routed");
    expect(note).toContain("Your MEMORY signal was not applied");
  });

  it("pauses on interrupt during a model call: exit 130, checkpoint, no unanswered tool call", async () => {
    const control = new LoopControl();
    const run = await runFixture({
      control,
      turns: [{ tools: [{ name: "read_file", input: { path: "a" } }] }, { before: () => control.interrupt() }],
    });
    expect(run.outcome).toEqual({ status: "paused", reason: "interrupted", exitCode: 130 });
    expect(run.session.iteration).toBe(1);
    expect(run.of("checkpoint.saved").at(-1)?.data.reason).toBe("pause");
    expectValidTranscript(run.messages);
  });

  it("fails on a model error with failure context in the checkpoint", async () => {
    const run = await runFixture({ turns: [{ error: new ModelError("invalid x-api-key", 401) }] });
    expect(run.outcome).toMatchObject({ status: "failed", exitCode: 1 });
    const checkpoint = await run.store.checkpoints.latest(run.session.id);
    expect(checkpoint).toMatchObject({ reason: "failure", lastError: "invalid x-api-key", failedAt: "model call at iteration 0" });
    expect(checkpoint?.recoveryHint).toMatch(/ANTHROPIC_API_KEY/);
  });

  it("refuses a call repeated too often, then stops the run for repetition", async () => {
    const same = { tools: [{ name: "read_file", input: { path: "same.ts" } }] };
    const run = await runFixture({ turns: Array.from({ length: 10 }, () => same) });
    const refusals = run.messages.flatMap((m) => toolResults(m.message)).filter((r) => String(r.content).startsWith("Refused"));
    expect(refusals).toHaveLength(3);
    expect(run.outcome).toEqual({
      status: "stopped",
      reason: "health:repetition (the same tool call was made 7 times in a row)",
      exitCode: 1,
    });
  });

  it("delivers steering with the next iteration and keeps it in the transcript", async () => {
    const control = new LoopControl();
    const run = await runFixture({
      control,
      turns: [{ text: "thinking", before: () => control.steer("use the fake clock") }, { text: "ok" }],
      maxIterations: 2,
    });
    expect(JSON.stringify(run.messages[2]!.message)).toContain("[Steering from the user] use the fake clock");
    expect(run.of("steer")[0]?.data.text).toBe("use the fake clock");
  });

  it("delivers steering typed while paused before an iteration with that iteration, not the one after", async () => {
    // A person pauses during iteration 1, types a message while the loop holds before iteration 2, continues.
    class TypedWhilePaused extends LoopControl {
      override async waitWhilePaused(onPause: () => void): Promise<void> {
        if (this.paused) {
          this.steer("keep it to one regex");
          this.unpause();
        }
        return super.waitWhilePaused(onPause);
      }
    }
    const control = new TypedWhilePaused();
    const run = await runFixture({
      control,
      turns: [{ text: "thinking", before: () => control.pause() }, { text: "ok" }, { text: "more" }],
      maxIterations: 3,
    });
    expect(JSON.stringify(run.model.requests[1]!.messages)).toContain("[Steering from the user] keep it to one regex");
    expect(JSON.stringify(run.model.requests[0]!.messages)).not.toContain("keep it to one regex");
    expect(run.of("steer").map((e) => e.iteration)).toEqual([2]);
  });
});

describe("secrets", () => {
  it("redacts secrets from tool output before the model, the database or the event log sees them", async () => {
    const key = "sk-ant-api03-" + "Zx9".repeat(30);
    const run = await runFixture({
      session: { hat: "creator" },
      maxIterations: 2,
      tools: [fakeTool("read_file", () => ({ isError: false, content: `ANTHROPIC_API_KEY=${key}\nPORT=3000` }))],
      turns: [{ tools: [{ name: "read_file", input: { path: ".env" } }] }, { text: "done" }],
    });
    expect(JSON.stringify(run.messages)).not.toContain(key);
    expect(JSON.stringify(run.messages)).toContain("[REDACTED:");
    expect(JSON.stringify(run.messages)).toContain("PORT=3000");
    expect(JSON.stringify(run.model.requests[1]!.messages)).not.toContain(key);
  });

  it("sends the model each message as the store stored it: redaction happens there, once", async () => {
    // A store that takes out more than the loop could know of: whatever it gives back is what goes on.
    const store = memoryStore();
    const append = store.messages.append.bind(store.messages);
    store.messages.append = async (sessionId, batch) => {
      const stored = await append(sessionId, batch);
      return stored.map((m) => ({
        ...m,
        message: JSON.parse(JSON.stringify(m.message).replaceAll("in-house-secret", "[withheld]")) as Message,
      }));
    };
    const run = await runFixture({
      store,
      createSession: true,
      maxIterations: 2,
      tools: [fakeTool("read_file", () => ({ isError: false, content: "value: in-house-secret" }))],
      turns: [{ tools: [{ name: "read_file", input: { path: "conf" } }] }, { text: "done" }],
    });
    const sent = JSON.stringify(run.model.requests[1]!.messages);
    expect(sent).toContain("value: [withheld]");
    expect(sent).not.toContain("in-house-secret");
  });

  it("keeps a secret typed as steering out of the requests, the messages and the checkpoints", async () => {
    const key = "ghp_" + "Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd";
    const control = new LoopControl();
    const tool = fakeTool("read_file", () => {
      control.steer(`use the token ${key} for the registry`);
      return { isError: false, content: "ok" };
    });
    const run = await runFixture({
      session: { hat: "creator" },
      control,
      maxIterations: 3,
      tools: [tool],
      turns: [{ tools: [{ name: "read_file", input: { path: "a" } }] }, { text: "noted" }, { text: "done" }],
    });
    expect(run.of("steer")).toHaveLength(1);
    const checkpoints = await run.store.checkpoints.list(run.session.id);
    expect(checkpoints.length).toBeGreaterThan(0);
    const kept = JSON.stringify([run.model.requests.slice(1).map((r) => r.messages), run.messages, checkpoints]);
    expect(kept).toContain("use the token [REDACTED:github-token] for the registry");
    expect(kept).not.toContain(key);
    // The steering is kept as the person's instruction, in the checkpoint's loop state too.
    expect(JSON.stringify(checkpoints[0]!.state)).toContain("[REDACTED:github-token]");
  });

  it("yields to the event loop every iteration, so timers and sockets are served during a fast run", async () => {
    // With a zero-latency model the whole run is microtasks; a timer set in iteration 3 must fire
    // while the run goes on, not after it (which is what starved the embedded-database watcher and
    // the event persister before). How many iterations later depends on the machine's load.
    let calls = 0;
    let firedAt: number | null = null;
    const probe = fakeTool("read_file", () => {
      calls++;
      if (calls === 3) setTimeout(() => (firedAt = calls), 0);
      return { isError: false, content: "ok" };
    });
    const turns: Turn[] = Array.from({ length: 30 }, (_, i) => ({
      text: `Reading ${i}.`,
      tools: [{ name: "read_file", input: { path: `f${i}.ts` } }],
    }));
    await runFixture({ session: { hat: "creator" }, tools: [probe], maxIterations: 30, turns });
    expect(calls).toBe(30);
    expect(firedAt).not.toBeNull();
    expect(firedAt!).toBeLessThan(30);
  });
});
