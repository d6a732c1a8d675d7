import { estimateTokens, toolResults, type Message } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { benchSystemPrompt } from "../suite.js";
import { apiClearToolUses } from "./api-clear-tool-uses.js";
import { claudeCode } from "./peers.js";

// The peers as their documentation says they behave.

const system = benchSystemPrompt();
const ctx = { window: 200_000, system, systemTokens: estimateTokens([], { system: [system] }), toolNames: [] };

/** n turns, each reading a file whose result is `chars` long. */
function turns(n: number, chars: number): Message[] {
  const out: Message[] = [{ role: "user", content: "Read every file." }];
  for (let i = 0; i < n; i++) {
    out.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read_file", input: { path: `src/f${i}.ts` } }] });
    out.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `export const f${i} = 1;\n${"x".repeat(chars)}` }],
    });
  }
  return out;
}

const kept = (request: Message[]) =>
  request.flatMap(toolResults).filter((r) => typeof r.content === "string" && r.content.startsWith("export"));

describe("clear_tool_uses_20250919", () => {
  it("sends everything under the trigger", async () => {
    const run = apiClearToolUses().start(ctx);
    const messages = turns(10, 4_000);
    expect(kept(await run.next(messages))).toHaveLength(10);
  });

  it("over the trigger keeps the results of the last `keep` tool uses, from the full history each time", async () => {
    const run = apiClearToolUses({ trigger: 20_000, keep: 3 }).start(ctx);
    const messages = turns(40, 4_000);
    const first = await run.next(messages.slice(0, 41));
    expect(kept(first).map((r) => r.tool_use_id)).toEqual(["t17", "t18", "t19"]);
    const second = await run.next(messages.slice(41));
    expect(kept(second).map((r) => r.tool_use_id)).toEqual(["t37", "t38", "t39"]);
  });

  it("clears nothing when less than clear_at_least would go, and clears the inputs when asked", async () => {
    const messages = turns(8, 4_000);
    const lazy = apiClearToolUses({ trigger: 5_000, keep: 3, clearAtLeast: 100_000 }).start(ctx);
    expect(kept(await lazy.next(messages))).toHaveLength(8);
    const inputs = apiClearToolUses({ trigger: 5_000, keep: 3, clearToolInputs: true }).start(ctx);
    const request = await inputs.next(messages);
    const calls = request.flatMap((m) => (typeof m.content === "string" ? [] : m.content.filter((b) => b.type === "tool_use")));
    expect(calls.filter((c) => c.type === "tool_use" && Object.keys(c.input as object).length === 0)).toHaveLength(5);
  });
});

describe("Claude Code auto-compact", () => {
  it("summarises at its trigger and re-attaches the files read last, each cut to 5k tokens", async () => {
    const run = claudeCode(10).start(ctx);
    const request = await run.next(turns(12, 30_000));
    expect(request).toHaveLength(1);
    const text = JSON.stringify(request[0]);
    expect(text).toContain("All user messages");
    for (const i of [7, 8, 9, 10, 11]) expect(text).toContain(`Contents of src/f${i}.ts`);
    expect(text).not.toContain("Contents of src/f6.ts");
    expect(estimateTokens(request)).toBeLessThan(5 * 5_000 + 5_000);
  });
});
