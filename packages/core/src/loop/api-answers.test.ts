import { textOf, toolResultText, toolResults, type Message } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config.js";
import { ModelError } from "../ports/model.js";
import { fakeTool, runFixture, type Turn } from "../test-support/loop-fixture.js";

// Answers the real API gives that must never end a session for good. The fixture's model rejects
// what the API rejects (blank text blocks, broken tool pairing), so a request hatloop should not
// send fails these tests the way it would fail a real session.

const tooLong = (tokens: number, max: number) =>
  new ModelError(`Anthropic API error 400 invalid_request_error: prompt is too long: ${tokens} tokens > ${max} maximum`, 400, false, {
    promptTokens: tokens,
    maxTokens: max,
  });
const tooLarge = new ModelError(
  "Anthropic API error 413 request_too_large: Request exceeds the maximum allowed number of bytes.",
  413,
  false,
  {
    promptTokens: null,
    maxTokens: null,
  },
);
/** What a request weighs as sent, in characters. */
const weight = (r: { system: unknown; tools: unknown; messages: unknown }) => JSON.stringify([r.system, r.tools, r.messages]).length;
const bulky = fakeTool("read_file", () => ({ isError: false, content: "const x = 1; // padding\n".repeat(1_500) }));
const read = (path: string): Turn => ({ tools: [{ name: "read_file", input: { path } }] });
const sent = (messages: Message[]) => JSON.stringify(messages);

describe("whitespace-only text blocks", () => {
  it("are stored as received but never sent back, also from a history stored before, on resume", async () => {
    const blank: Turn = { blocks: [{ type: "text", text: "\n\n" }], tools: [{ name: "read_file", input: { path: "a.ts" } }] };
    const first = await runFixture({ maxIterations: 2, turns: [blank, { blocks: [{ type: "text", text: " " }] }] });
    expect(first.outcome.reason).toBe("budget:iterations");
    expect(first.messages.filter((m) => sent([m.message]).includes('"text":"\\n\\n"'))).toHaveLength(1);
    const resumed = await runFixture({ store: first.store, maxIterations: 4, turns: [read("b.ts"), { text: "done" }] });
    expect(resumed.outcome.reason).toBe("budget:iterations");
    for (const request of [...first.model.requests, ...resumed.model.requests]) expect(sent(request.messages)).not.toMatch(/"text":"\s*"/);
  });
});

describe("prompt too long", () => {
  it("is a measurement: compacts and retries the same iteration, learning the model's real window", async () => {
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [bulky],
      contextWindow: 200_000,
      maxIterations: 4,
      turns: [read("a.ts"), read("b.ts"), { error: tooLong(41_000, 30_000) }, read("c.ts"), { text: "ok" }],
    });
    expect(run.outcome.reason).toBe("budget:iterations");
    expect(run.of("context.overflow").map((e) => [e.iteration, e.data])).toEqual([
      [3, { promptTokens: 41_000, maxTokens: 30_000, attempt: 1 }],
    ]);
    expect(run.of("context.compacted")[0]?.iteration).toBe(3);
    expect(run.session.contextWindow).toBe(30_000);
    // The retry is iteration 3 again, and smaller than what overflowed.
    expect(run.of("iteration.start").map((e) => e.iteration)).toEqual([1, 2, 3, 4]);
    expect(sent(run.model.requests[3]!.messages).length).toBeLessThan(sent(run.model.requests[2]!.messages).length / 2);
  });

  it("413 request_too_large, which names no size, compacts to half of what was sent and retries the same iteration", async () => {
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [bulky],
      contextWindow: 200_000,
      maxIterations: 4,
      turns: [read("a.ts"), read("b.ts"), { error: tooLarge }, read("c.ts"), { text: "ok" }],
    });
    expect(run.outcome.reason).toBe("budget:iterations");
    expect(run.of("context.overflow").map((e) => [e.iteration, e.data])).toEqual([
      [3, { promptTokens: null, maxTokens: null, attempt: 1 }],
    ]);
    expect(run.of("context.compacted")[0]?.iteration).toBe(3);
    expect(run.session.contextWindow).toBe(200_000);
    expect(run.of("iteration.start").map((e) => e.iteration)).toEqual([1, 2, 3, 4]);
    expect(sent(run.model.requests[3]!.messages).length).toBeLessThanOrEqual(sent(run.model.requests[2]!.messages).length / 2);
  });

  it("gives up after a bounded number of compactions, resumably, and resume does the same work", async () => {
    const overflow = { error: tooLong(250_000, 200_000) };
    const run = await runFixture({ tools: [bulky], contextWindow: 200_000, turns: [read("a.ts"), overflow, overflow, overflow, overflow] });
    expect(run.outcome.status).toBe("failed");
    expect(run.outcome.reason).toMatch(
      /prompt is too long: 250000 tokens > 200000 maximum \((still too large after 3 compactions|compaction could not make the request smaller.*)\)$/,
    );
    expect(run.of("context.overflow").length).toBeLessThanOrEqual(3);
    const resumed = await runFixture({
      store: run.store,
      tools: [bulky],
      contextWindow: 200_000,
      maxIterations: 2,
      turns: [overflow, { text: "fits now" }],
    });
    // Nothing left to compact: one request, refused, and a clear stop instead of the same request again.
    expect(resumed.model.requests).toHaveLength(1);
    expect(resumed.outcome.reason).toMatch(/compaction could not make the request smaller/);
  });

  it("never sends a refused request again: on a history compaction cannot shrink it stops, resumably, and so does resume", async () => {
    const overflow = { error: tooLong(8_900, 8_000) };
    const run = await runFixture({ contextWindow: 200_000, turns: [overflow, overflow, overflow, overflow] });
    const sizes = run.model.requests.map(weight);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(sizes[i - 1]!);
    expect(sizes.length).toBeLessThan(4);
    expect(run.outcome.status).toBe("failed");
    expect(run.outcome.reason).toMatch(/prompt is too long: 8900 tokens > 8000 maximum \(compaction could not make the request smaller/);
    const resumed = await runFixture({ store: run.store, contextWindow: 200_000, turns: [overflow, overflow, overflow] });
    const again = resumed.model.requests.map(weight);
    for (let i = 1; i < again.length; i++) expect(again[i]).toBeLessThan(again[i - 1]!);
    expect(resumed.outcome.status).toBe("failed");
  });

  it("413 on a short history: what is sent next is smaller than what was refused, never larger", async () => {
    const small = fakeTool("read_file", () => ({ isError: false, content: "const x = 1; // padding\n".repeat(60) }));
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [small],
      contextWindow: 200_000,
      maxIterations: 3,
      turns: [read("a.ts"), { error: tooLarge }, { error: tooLarge }, { error: tooLarge }, { text: "ok" }],
    });
    const sizes = run.model.requests.slice(1).map(weight);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(sizes[i - 1]!);
    expect(run.outcome.reason).toMatch(/413 request_too_large.*\(compaction could not make the request smaller/);
    for (const e of run.of("context.compacted"))
      expect((e.data as { tokensAfter: number }).tokensAfter).toBeLessThan((e.data as { tokensBefore: number }).tokensBefore);
  });

  it("fails at once, with the API's words, when no context management can shrink it", async () => {
    const run = await runFixture({ turns: [{ error: tooLong(250_000, 200_000) }] });
    expect(run.outcome).toMatchObject({ status: "failed", reason: expect.stringContaining("prompt is too long") });
  });

  it("cuts a single tool result too big for any context instead of retrying forever", async () => {
    // Pruning keeps the newest turn whole; here that turn alone is larger than the window.
    const sizes: Record<string, number> = { "huge.bin": 3_000 };
    const reader = fakeTool("read_file", (input) => ({
      isError: false,
      content: "0123456789abcdef\n".repeat(sizes[String(input.path)] ?? 40),
    }));
    const turns = [read("a.ts"), read("b.ts"), read("c.ts"), read("huge.bin"), { text: "seen it" }];
    const run = await runFixture({
      session: { hat: "creator" },
      tools: [reader],
      contextWindow: 8_000,
      config: { context: { ...defaultConfig().context, maxStubs: 1 } },
      maxIterations: 5,
      turns,
    });
    expect(run.outcome.reason).toBe("budget:iterations");
    const last = run.model.requests[4]!;
    const shown = last.messages
      .flatMap(toolResults)
      .map((r) => toolResultText(r))
      .join("\n");
    expect(shown).toMatch(/\[hatloop cut: \d+ of \d+ characters cut to fit the model's context window/);
    expect(run.of("context.compacted").at(-1)?.data.strategy).toMatch(/\+cut$/);
    // The result as the tool gave it (capped at tools.maxResultChars) stays stored whole.
    const stored = run.messages.flatMap((m) => toolResults(m.message)).map((r) => toolResultText(r));
    expect(stored.some((t) => t.length > 30_000 && !t.includes("[hatloop cut:"))).toBe(true);
  });
});

describe("refusals", () => {
  const refused = (text: string): Turn => ({
    text,
    stopReason: "refusal",
    response: { refusal: { category: "cyber", explanation: "This request was declined because it could enable cyber harm." } },
  });

  it("archive the refused answer, tell the user why, and ask again without it", async () => {
    const run = await runFixture({ maxIterations: 3, turns: [read("a.ts"), refused("Sure, here is the expl"), { text: "Carrying on." }] });
    expect(run.outcome.reason).toBe("budget:iterations");
    expect(run.of("model.refusal").map((e) => e.data)).toEqual([
      { category: "cyber", explanation: "This request was declined because it could enable cyber harm.", consecutive: 1, action: "retry" },
    ]);
    const next = run.model.requests[2]!.messages;
    expect(sent(next)).not.toContain("Sure, here is the expl");
    expect(textOf(next.at(-1)!)).toContain("stopped by the API's safety classifier (cyber: This request was declined");
    expect(run.messages.filter((m) => m.kind === "archived").map((m) => textOf(m.message))).toEqual(["Sure, here is the expl"]);
  });

  it("withhold the results before a second one in a row, stop the session at the third, and resume", async () => {
    const run = await runFixture({ turns: [read("a.ts"), refused("one"), refused("two"), refused("three")] });
    expect(run.of("model.refusal").map((e) => e.data.action)).toEqual(["retry", "withhold", "stop"]);
    expect(toolResultText(run.model.requests[3]!.messages.flatMap(toolResults)[0]!)).toContain("withheld: the API refused");
    expect(run.outcome).toMatchObject({
      status: "stopped",
      exitCode: 1,
      reason: expect.stringMatching(/^health:refusals \(the model's answer was refused 3 times in a row \(cyber: /),
    });
    const resumed = await runFixture({ store: run.store, maxIterations: 5, turns: [{ text: "Back to work." }] });
    expect(resumed.outcome.reason).toBe("budget:iterations");
    expect(sent(resumed.model.requests[0]!.messages)).not.toMatch(/"one"|"two"|"three"/);
  });
});

describe("a tool call cut off by the output limit", () => {
  const cut: Turn = { text: "Writing the file.", stopReason: "max_tokens", response: { truncatedTools: ["write_file"] } };

  it("is asked again with the model's maximum output, in the same iteration", async () => {
    const run = await runFixture({
      maxIterations: 1,
      turns: [cut, { tools: [{ name: "write_file", input: { path: "a.ts", content: "x" } }] }],
    });
    expect(run.of("model.truncated").map((e) => e.data)).toEqual([{ tools: ["write_file"], maxTokens: 8_192, retryWith: 64_000 }]);
    expect(run.model.requests.map((r) => r.maxTokens)).toEqual([8_192, 64_000]);
    expect(sent(run.model.requests[1]!.messages)).not.toContain("Writing the file.");
    expect(run.messages.filter((m) => m.kind === "archived")).toHaveLength(1);
  });

  it("at the model's maximum already, tells the model the call was not run", async () => {
    const run = await runFixture({ config: { maxOutputTokens: 64_000 }, maxIterations: 2, turns: [cut, { text: "ok" }] });
    expect(run.of("model.truncated").map((e) => e.data.retryWith)).toEqual([null]);
    expect(textOf(run.model.requests[1]!.messages.at(-1)!)).toContain(
      "Your call to write_file was cut off at the output limit (64000 tokens",
    );
  });
});
