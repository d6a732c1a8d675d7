import { describe, expect, it } from "vitest";
import { toCreateParams } from "../anthropic/request-params.js";
import { requestProblems, type WireRequest } from "./validate-request.js";

const tool = { name: "read_file", description: "read", input_schema: { type: "object" } };
const use = (id: string) => ({ type: "tool_use" as const, id, name: "read_file", input: {} });
const result = (id: string) => ({ type: "tool_result" as const, tool_use_id: id, content: "ok" });
const base = (messages: unknown[], extra: Partial<WireRequest> = {}): WireRequest => ({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  tools: [tool],
  messages,
  ...extra,
});

describe("requestProblems", () => {
  it("accepts what hatloop sends: combined user turns, results first, breakpoints within the limit", () => {
    const params = toCreateParams({
      model: "claude-sonnet-4-5",
      system: ["You are a careful engineer.", "Hat: creator"],
      tools: [{ name: "read_file", description: "read", inputSchema: { type: "object" } }],
      maxTokens: 8192,
      messages: [
        { role: "user", content: "fix it" },
        { role: "user", content: [{ type: "text", text: "[hatloop] note" }] },
        { role: "assistant", content: [{ type: "text", text: "Reading." }, use("t1")] },
        { role: "user", content: [result("t1"), { type: "text", text: "[hatloop] continue" }] },
      ],
    });
    expect(requestProblems(params)).toEqual([]);
  });

  it("rejects blank text blocks with the API's words", () => {
    expect(
      requestProblems(
        base([
          { role: "user", content: "go" },
          { role: "assistant", content: [{ type: "text", text: "\n\n" }, use("t1")] },
          { role: "user", content: [result("t1")] },
        ]),
      ),
    ).toEqual(["messages: text content blocks must contain non-whitespace text"]);
    expect(requestProblems(base([{ role: "user", content: [{ type: "text", text: "" }] }]))).toEqual([
      "messages: text content blocks must be non-empty",
    ]);
  });

  it("rejects a tool_use not answered first thing in the next turn, and results that answer nothing", () => {
    const late = base([
      { role: "user", content: "go" },
      { role: "assistant", content: [use("t1")] },
      { role: "user", content: [{ type: "text", text: "hi" }, result("t1")] },
    ]);
    expect(requestProblems(late)[0]).toMatch(
      /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: t1\./,
    );
    const orphan = base([{ role: "user", content: [result("t9")] }]);
    expect(requestProblems(orphan)).toEqual([
      expect.stringMatching(/^messages\.0\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: t9\./),
    ]);
  });

  it("rejects duplicate tool_use ids, tools without definitions, bad tool names and schemas", () => {
    const dup = base([
      { role: "user", content: "go" },
      { role: "assistant", content: [use("t1"), use("t1")] },
      { role: "user", content: [result("t1")] },
    ]);
    expect(requestProblems(dup)).toContain("messages.1.content.1: `tool_use` ids must be unique");
    expect(
      requestProblems(
        base(
          [
            { role: "user", content: "go" },
            { role: "assistant", content: [use("t1")] },
          ],
          { tools: [] },
        ),
      ),
    ).toContain("messages: Requests which include `tool_use` or `tool_result` blocks must define tools.");
    const tools = [
      { name: "read file", input_schema: { type: "object" } },
      { name: "x", input_schema: { type: "string" } },
      { name: "x", input_schema: { type: "object" } },
    ];
    expect(requestProblems(base([{ role: "user", content: "go" }], { tools }))).toEqual([
      "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
      "tools.1.custom.input_schema.type: Input should be 'object'",
      "tools: Tool names must be unique.",
    ]);
  });

  it("rejects more than 4 cache breakpoints and cache_control on an empty text block", () => {
    const marked = (text: string) => ({ type: "text", text, cache_control: { type: "ephemeral" } });
    const five = base([{ role: "user", content: [marked("a"), marked("b"), marked("c"), marked("d"), marked("e")] }]);
    expect(requestProblems(five)).toEqual(["A maximum of 4 blocks with cache_control may be provided. Found 5."]);
    expect(requestProblems(base([{ role: "user", content: [marked("")] }]))).toEqual([
      "messages.0.content.0.text: cache_control cannot be set for empty text blocks",
    ]);
  });

  it("rejects max_tokens over the model's output limit", () => {
    expect(requestProblems(base([{ role: "user", content: "go" }], { model: "claude-opus-4-1", max_tokens: 64_000 }))).toEqual([
      "max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-1",
    ]);
  });

  it("rejects a thinking block that does not come back byte for byte", () => {
    const issued = new Map([["sig-1", "Let me think."]]);
    const turn = (thinking: string) =>
      base([
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "thinking", thinking, signature: "sig-1" }, use("t1")] },
        { role: "user", content: [result("t1")] },
      ]);
    expect(requestProblems(turn("Let me think."), { issuedThinking: issued })).toEqual([]);
    expect(requestProblems(turn("Let me think"), { issuedThinking: issued })).toEqual([
      "messages.1.content.0: Invalid `signature` in `thinking` block",
    ]);
  });
});
