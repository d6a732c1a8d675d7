import { jsonDepthExceeds, jsonText, MAX_JSON_DEPTH, toolResults, toolUses } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { fakeTool, runFixture } from "../test-support/loop-fixture.js";

// A model can write JSON nested as deep as it likes. Every walk over it (redaction, signatures,
// token estimates, summaries, the request sent back, the store) used to recurse and overflow the
// stack: the session failed. Now the loop keeps 64 levels as structure and the rest as JSON text,
// and runs no tool on such an input.

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: "the end" };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe.each([3_000, 100_000])("a tool input nested %i levels deep", (depth) => {
  it("is answered with an error, kept whole as text, and the session goes on", async () => {
    let ran = 0;
    const write = fakeTool("write_file", () => (ran++, { isError: false, content: "written" }));
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [write],
      maxIterations: 3,
      turns: [
        { tools: [{ name: "write_file", input: { path: "x.json", content: nested(depth) } }] },
        { text: `EVENT:x.y:${jsonText(nested(depth))}` },
        { text: "done" },
      ],
    });
    expect(run.outcome.reason).toBe("budget:iterations");
    expect(ran).toBe(0);
    const call = run.messages.flatMap((m) => toolUses(m.message))[0]!;
    expect(jsonDepthExceeds(call.input, MAX_JSON_DEPTH)).toBe(false);
    expect(JSON.stringify(call.input)).toContain("the end");
    const result = run.messages.flatMap((m) => toolResults(m.message))[0]!;
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/nested 64 levels deep or more/);
    expect(run.of("signal.malformed")[0]?.data.reason).toMatch(/unknown topic|nested/);
  });
});

it("an event payload nested too deep is reported as malformed, not routed", async () => {
  const run = await runFixture({ maxIterations: 1, turns: [{ text: `EVENT:plan.complete:${jsonText(nested(5_000))}` }] });
  expect(run.outcome.reason).toBe("budget:iterations");
  expect(run.of("signal.malformed")[0]?.data.reason).toMatch(/nested 64 levels deep or more/);
  expect(run.of("hat.change")).toEqual([]);
});
