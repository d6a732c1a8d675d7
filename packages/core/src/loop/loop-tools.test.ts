import { describe, expect, it } from "vitest";
import type { ToolContext } from "../ports/tools.js";
import { LOOP_TOOL_NAMES, loopTools } from "./loop-tools.js";

// The loop's own tools are defined like every other tool: the schema the model sees and the check of
// what it sends are one zod schema.

const tools = new Map(loopTools(new Set(["plan.complete"])).map((t) => [t.spec.name, t]));
const context = { signal: new AbortController().signal } as ToolContext;
const call = (name: string, input: Record<string, unknown>) => tools.get(name)!.run(input, context);

describe("the loop's tools", () => {
  it("are the names loop health leaves out, no more and no fewer", () => {
    expect([...LOOP_TOOL_NAMES].sort()).toEqual([...tools.keys()].sort());
  });

  it("hand back the signals they stand for, trimmed, a single item taken as a list of one", async () => {
    const result = await call("update_checklist", { add: { id: " 1 ", description: "write the test" }, done: "0" });
    expect(result).toEqual({
      isError: false,
      content: "ok",
      meta: {
        signals: [
          { kind: "checklist_add", id: "1", description: "write the test" },
          { kind: "checklist_done", id: "0" },
        ],
      },
    });
    expect((await call("remember", { type: "Decision", text: "use UTC" })).meta?.signals).toEqual([
      { kind: "memory", memoryType: "decision", text: "use UTC" },
    ]);
    expect((await call("ask_user", { question: "Postgres or SQLite?" })).content).toMatch(/^Asked\. The run waits/);
  });

  it("refuse what their schema does not allow, and topics the hats do not publish", async () => {
    expect(await call("update_scratchpad", { content: "   " })).toMatchObject({
      isError: true,
      content: "invalid input for update_scratchpad: content: must not be empty",
    });
    expect((await call("remember", { type: "gossip", text: "x" })).isError).toBe(true);
    expect(await call("update_checklist", {})).toMatchObject({ isError: true, content: expect.stringContaining("nothing to update") });
    expect(await call("publish_event", { topic: "plan.done" })).toMatchObject({
      isError: true,
      content: "publish_event: unknown topic plan.done",
    });
    expect((await call("publish_event", { topic: "plan.complete", message: " go " })).meta?.signals).toEqual([
      { kind: "event", topic: "plan.complete", payload: { message: "go" } },
    ]);
  });

  it("show the model the JSON Schema of their zod schema", () => {
    expect(tools.get("remember")!.spec.inputSchema).toEqual({
      type: "object",
      properties: { type: { type: "string", enum: expect.arrayContaining(["decision", "pitfall"]) }, text: { type: "string" } },
      required: ["type", "text"],
    });
  });
});
