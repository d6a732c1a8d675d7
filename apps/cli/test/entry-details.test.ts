import { describe, expect, it } from "vitest";
import type { Message } from "@hatloop/context";
import { memoryStore, type NewMessage } from "@hatloop/core";
import { entryDetails } from "../src/ui/entry-details.js";

const SESSION = "s-1";

function message(seq: number, iteration: number, message: Message, kind: NewMessage["kind"] = "conversation"): NewMessage {
  return { seq, iteration, hat: "creator", kind, message, tokenEstimate: 1 };
}

/** 500 filler messages (more than a page) after the ones that matter, as in a long session. */
async function storeWith(first: NewMessage[]) {
  const store = memoryStore();
  const filler = Array.from({ length: 500 }, (_, i) =>
    message(first.length + i + 1, 9 + Math.floor(i / 10), { role: "user", content: `filler ${i}` }),
  );
  await store.messages.append(SESSION, [...first, ...filler]);
  return store;
}

describe("an opened entry's whole content, from the stored messages", () => {
  it("finds a tool call's input and full result by its id, a gate run's output, and an iteration's text", async () => {
    const diff = `diff --git a/a.ts b/a.ts\n${Array.from({ length: 300 }, (_, i) => `+line ${i}`).join("\n")}`;
    const store = await storeWith([
      message(1, 3, { role: "user", content: "the task" }),
      message(2, 3, {
        role: "assistant",
        content: [
          { type: "text", text: "Looking at the change." },
          { type: "tool_use", id: "tu_diff", name: "git_diff", input: { staged: false } },
        ],
      }),
      message(3, 3, { role: "user", content: [{ type: "tool_result", tool_use_id: "tu_diff", content: diff }] }),
      message(4, 4, {
        role: "assistant",
        content: [{ type: "tool_use", id: "tu_done", name: "task_complete", input: { summary: "done" } }],
      }),
      message(5, 4, {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "tu_done", content: "QUALITY_FAILED\ntest: FAIL auth.test.ts", is_error: true }],
      }),
    ]);
    const load = entryDetails(store, SESSION);
    const tool = await load({ kind: "tool", toolId: "tu_diff", iteration: 3 });
    expect(tool).toBe(`git_diff input:\n{\n  "staged": false\n}\n\ngit_diff result:\n${diff}`);
    expect(await load({ kind: "gate", iteration: 4 })).toContain("task_complete result (error):\nQUALITY_FAILED\ntest: FAIL auth.test.ts");
    expect(await load({ kind: "text", iteration: 3 })).toBe("Looking at the change.");
    await expect(load({ kind: "tool", toolId: "tu_gone", iteration: 3 })).rejects.toThrow("tool call tu_gone is not stored");
    await expect(load({ kind: "gate", iteration: 3 })).rejects.toThrow("no task_complete stored for iteration 3");
  });
});
