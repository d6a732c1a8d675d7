import { ModelError } from "@hatloop/core";
import { describe, expect, it } from "vitest";
import { collect, fastRetry, request } from "../test-support/fixtures.js";
import { parseScenario } from "./scenario.js";
import { ScriptedModel } from "./scripted-model.js";

const noSleep = async (): Promise<void> => {};

function model(lines: string[], options: ConstructorParameters<typeof ScriptedModel>[1] = {}): ScriptedModel {
  return new ScriptedModel(parseScenario(lines.join("\n"), "t.jsonl"), { sleep: noSleep, retry: fastRetry(), ...options });
}

const twoTurns = [
  '{"scenario": {"model": "claude-haiku-4-5"}}',
  '{"text": "Reading the test file now, then the helper.", "tools": [{"name": "read_file", "input": {"path": "a.ts"}}, {"name": "search", "input": {"q": "now"}}]}',
  '{"text": "All done.", "usage": {"input_tokens": 100, "output_tokens": 7, "cache_read_input_tokens": 900}}',
];

describe("ScriptedModel", () => {
  it("plays the grader's requests from the grader lines, whatever their model, without moving the main turns", async () => {
    const lines = [
      ...twoTurns,
      '{"for": "grader", "tools": [{"name": "record_verdicts", "input": {"verdicts": []}}]}',
      '{"for": "grader", "text": "second grading"}',
    ];
    const scripted = model(lines);
    const grading = { ...request(), model: "claude-haiku-4-5", purpose: "grader" as const };
    const first = await scripted.complete(grading);
    expect(first.message.content).toEqual([{ type: "tool_use", id: "toolu_grade1_1", name: "record_verdicts", input: { verdicts: [] } }]);
    expect(scripted.position).toBe(0);
    expect((await scripted.complete(request())).message.content).toHaveLength(3);
    // A resumed session skips the gradings it stored.
    const resumed = model(lines, { graderStartAt: 1 });
    expect((await resumed.complete(grading)).message.content).toEqual([{ type: "text", text: "second grading" }]);
    await expect(resumed.complete(grading)).rejects.toThrow(/no grader turn left/);
  });

  it("streams a turn's text in several deltas and returns its tool calls with deterministic ids", async () => {
    const seen = collect();
    const response = await model(twoTurns).complete(request(), seen.onEvent);
    expect(seen.events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(2);
    expect(seen.text()).toBe("Reading the test file now, then the helper.");
    expect(seen.events.filter((e) => e.type === "tool_use_start")).toEqual([
      { type: "tool_use_start", id: "toolu_s1_1", name: "read_file" },
      { type: "tool_use_start", id: "toolu_s1_2", name: "search" },
    ]);
    expect(response.message.content).toEqual([
      { type: "text", text: "Reading the test file now, then the helper." },
      { type: "tool_use", id: "toolu_s1_1", name: "read_file", input: { path: "a.ts" } },
      { type: "tool_use", id: "toolu_s1_2", name: "search", input: { q: "now" } },
    ]);
    expect(response.stopReason).toBe("tool_use");
  });

  it("uses stated usage and prices it, and advances position", async () => {
    const scripted = model(twoTurns);
    await scripted.complete(request());
    expect(scripted.position).toBe(1);
    const second = await scripted.complete(request());
    expect(second.usage).toEqual({ inputTokens: 100, outputTokens: 7, cacheReadTokens: 900, cacheWriteTokens: 0 });
    expect(second.costUsd).toBeCloseTo((100 * 1 + 7 * 5 + 900 * 0.1) / 1e6, 12);
    expect(second.stopReason).toBe("end_turn");
    expect(scripted.position).toBe(2);
  });

  it("estimates usage from the request, with the cache growing like the real client's", async () => {
    const scripted = model(['{"text": "one"}', '{"text": "two"}', '{"text": "three"}']);
    const small = await scripted.complete(request());
    expect(small.usage).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(small.usage.inputTokens).toBeGreaterThan(5);

    const system = ["x".repeat(8_000)];
    const first = request({ system, messages: [{ role: "user", content: "go" }] });
    const u1 = (await scripted.complete(first)).usage;
    expect(u1.cacheReadTokens).toBe(0);
    expect(u1.cacheWriteTokens).toBeGreaterThan(2_000);
    const next = request({
      system,
      messages: [...first.messages, { role: "assistant", content: "two" }, { role: "user", content: "more" }],
    });
    const u2 = (await scripted.complete(next)).usage;
    expect(u2.cacheReadTokens).toBe(u1.cacheWriteTokens);
    expect(u2.cacheWriteTokens).toBeGreaterThan(0);
    expect(u2.cacheWriteTokens).toBeLessThan(50);
  });

  it("surfaces an injected failure as a retry event, then plays the next turn", async () => {
    const retry = fastRetry();
    const scripted = model(['{"error": {"status": 529, "retry_after_s": 0.25}}', '{"text": "after the storm"}'], { retry });
    const seen = collect();
    const response = await scripted.complete(request(), seen.onEvent);
    expect(seen.events[0]).toMatchObject({ type: "retry", attempt: 1, waitMs: 250, status: 529 });
    expect(String(seen.events[0]?.type === "retry" && seen.events[0].reason)).toContain("overloaded_error");
    expect(retry.waits).toEqual([250]);
    expect(response.message.content).toEqual([{ type: "text", text: "after the storm" }]);
    expect(scripted.position).toBe(1);
  });

  it("throws a non-retriable injected failure at once with its status", async () => {
    const scripted = model(['{"error": {"status": 400, "message": "prompt is too long"}}', '{"text": "later"}']);
    await expect(scripted.complete(request())).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("prompt is too long"),
    });
    await expect(scripted.complete(request())).resolves.toMatchObject({ message: { content: [{ type: "text", text: "later" }] } });
  });

  it("gives up like the real client when failures outlast the attempts", async () => {
    const failures = Array.from({ length: 3 }, () => '{"error": {"status": 429, "retry_after_s": 0}}');
    const scripted = model([...failures, '{"text": "never reached"}'], { retry: fastRetry({ maxAttempts: 3 }) });
    await expect(scripted.complete(request())).rejects.toMatchObject({ status: 429, message: expect.stringContaining("gave up after 3") });
  });

  it("resumes at startAt, skipping consumed turns and the failures before them", async () => {
    const lines = ['{"text": "t1"}', '{"error": {"status": 500}}', '{"text": "t2", "tools": [{"name": "run"}]}', '{"text": "t3"}'];
    const scripted = model(lines, { startAt: 2 });
    expect(scripted.position).toBe(2);
    const seen = collect();
    const response = await scripted.complete(request(), seen.onEvent);
    expect(seen.events.some((e) => e.type === "retry")).toBe(false);
    expect(response.message.content).toEqual([{ type: "text", text: "t3" }]);
    expect(scripted.position).toBe(3);

    const resumedAtTool = await model(lines, { startAt: 1 }).complete(request());
    expect(resumedAtTool.message.content).toContainEqual({ type: "tool_use", id: "toolu_s2_1", name: "run", input: {} });
  });

  it("serves other models from the summary queue and throws when it is empty", async () => {
    const scripted = model(['{"scenario": {"model": "claude-haiku-4-5"}}', '{"text": "main"}', '{"for": "summary", "text": "summary"}']);
    const summary = await scripted.complete(request({ model: "claude-3-5-haiku-latest" }));
    expect(summary.message.content).toEqual([{ type: "text", text: "summary" }]);
    expect(summary.model).toBe("claude-3-5-haiku-latest");
    expect(scripted.position).toBe(0);
    await expect(scripted.complete(request({ model: "claude-3-5-haiku-latest" }))).rejects.toThrow(/no summary turn left/);
    await expect(scripted.complete(request())).resolves.toMatchObject({ message: { content: [{ type: "text", text: "main" }] } });
  });

  it("takes the first request's model as main when neither header nor option names one", async () => {
    const scripted = model(['{"text": "main"}', '{"for": "summary", "text": "s"}']);
    await scripted.complete(request({ model: "claude-opus-4-5" }));
    await expect(scripted.complete(request({ model: "claude-haiku-4-5" }))).resolves.toMatchObject({
      message: { content: [{ type: "text", text: "s" }] },
    });
  });

  it("reports exhaustion with the turn number", async () => {
    const scripted = model(['{"text": "only"}'], { startAt: 0 });
    await scripted.complete(request());
    const error = await scripted.complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe("scenario exhausted at turn 2");
  });

  it("waits delay_ms between chunks and stops promptly on abort without consuming the turn", async () => {
    const waits: number[] = [];
    const scripted = model(['{"text": "one two three four five six seven eight", "delay_ms": 40, "chunk_chars": 4}'], {
      sleep: (ms) => new Promise((resolve) => setTimeout(() => resolve(void waits.push(ms)), ms)),
    });
    const controller = new AbortController();
    const pending = scripted.complete(request({ signal: controller.signal }), (e) => {
      if (e.type === "text_delta" && e.text.startsWith("two")) controller.abort();
    });
    await expect(pending).rejects.toMatchObject({ aborted: true });
    expect(waits).toEqual([40]);
    expect(scripted.position).toBe(0);
  });
});

describe("ScriptedModel abort without delays", () => {
  it("does not return a turn once the signal has aborted", async () => {
    const scripted = model(['{"text": "one two three four five six"}']);
    const controller = new AbortController();
    const pending = scripted.complete(request({ signal: controller.signal }), () => controller.abort());
    await expect(pending).rejects.toMatchObject({ aborted: true });
    expect(scripted.position).toBe(0);
  });

  it("plays refusals, cut tool calls and prompt-too-long answers as the API gives them", async () => {
    const scripted = model([
      '{"text": "Sure", "stop": "refusal", "stop_details": {"category": "cyber", "explanation": "declined"}}',
      '{"text": "Writing.", "stop": "max_tokens", "cut_tool": "write_file"}',
      '{"error": {"status": 400, "message": "prompt is too long: 250000 tokens > 200000 maximum"}}',
    ]);
    await expect(scripted.complete(request())).resolves.toMatchObject({
      stopReason: "refusal",
      refusal: { category: "cyber", explanation: "declined" },
    });
    await expect(scripted.complete(request())).resolves.toMatchObject({ stopReason: "max_tokens", truncatedTools: ["write_file"] });
    await expect(scripted.complete(request())).rejects.toMatchObject({
      status: 400,
      overflow: { promptTokens: 250_000, maxTokens: 200_000 },
    });
    expect(() => parseScenario('{"text": "x", "cut_tool": "write_file"}', "t")).toThrow("cut_tool goes with stop max_tokens");
  });

  it("refuses a request the API would reject, with the API's words", async () => {
    const bad = request({ messages: [{ role: "user", content: [{ type: "text", text: "  " }] }] });
    await expect(model(twoTurns).complete(bad)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("text content blocks must contain non-whitespace text"),
    });
  });
});
