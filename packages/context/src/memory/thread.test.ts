import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import type { Message } from "../messages.js";
import { buildKeyExchanges, buildThread, buildThreadSummary, GIST_LENGTH, MAX_KEY_EXCHANGES } from "./thread.js";

const user = (text: string): Message => ({ role: "user", content: text });
const agent = (text: string): Message => ({ role: "assistant", content: text });
const toolTurn = (id: string): Message[] => [
  { role: "assistant", content: [{ type: "tool_use", id, name: "read_file", input: { path: "a.ts" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "file text" }] },
];

describe("buildThreadSummary", () => {
  it("joins the first and last real user messages", () => {
    const messages = [user("Fix the flaky parser test"), agent("On it."), user("Also update the changelog")];
    expect(buildThreadSummary(messages)).toBe("Fix the flaky parser test ... Also update the changelog");
  });

  it("ignores injected text of every kind", () => {
    const messages = [
      user(`${MARKERS.summary}\n- Called read_file`),
      user(`${MARKERS.resume}\n**Task**: x`),
      user("Fix the flaky parser test"),
      agent("Done."),
      user(`${MARKERS.gauge}81% | 162k/200k tokens]`),
      user(`${MARKERS.continuation} continue`),
      user(`${MARKERS.recalled}>old</recalled-context>`),
      user(`${MARKERS.removedResult} #3]`),
    ];
    expect(buildThreadSummary(messages)).toBe("Fix the flaky parser test");
  });

  it("counts steering messages as the user", () => {
    const messages = [user("Fix the parser"), agent("ok"), user(`${MARKERS.steer} skip the docs`)];
    expect(buildThreadSummary(messages)).toBe("Fix the parser ... skip the docs");
  });

  it("cuts each part to 100 characters at a word boundary", () => {
    const long = `${"word ".repeat(40)}end`;
    const summary = buildThreadSummary([user(long)]);
    expect(summary.length).toBeLessThanOrEqual(100);
    expect(summary.endsWith("…")).toBe(true);
  });

  it("is empty without real user messages", () => {
    expect(buildThreadSummary([user(`${MARKERS.continuation} go`), agent("working")])).toBe("");
  });
});

describe("buildKeyExchanges", () => {
  it("includes the first user message, pivots after long responses and the last two exchanges", () => {
    const long = "x".repeat(600);
    const messages = [
      user("u1 start"),
      agent("a1 short"),
      user("u2 after short"),
      agent(long),
      user("u3 pivot"),
      agent("a3"),
      user("u4"),
      agent("a4"),
      ...toolTurn("t1"),
      agent("a4 final"),
      user("u5"),
      agent("a5"),
    ];
    const gists = buildKeyExchanges(messages).map((e) => `${e.role}:${e.gist}`);
    expect(gists).toEqual(["user:u1 start", "user:u3 pivot", "user:u4", "agent:a4 final", "user:u5", "agent:a5"]);
  });

  it("never uses injected text, even after a long response", () => {
    const messages = [user("start"), agent("y".repeat(700)), user(`${MARKERS.gauge}90%]`), user(`${MARKERS.summary} blob`)];
    const exchanges = buildKeyExchanges(messages);
    expect(exchanges.map((e) => e.role)).toEqual(["user", "agent"]);
    expect(exchanges[0]!.gist).toBe("start");
  });

  it("caps at 8 entries keeping the newest pivots, gists at 120 characters", () => {
    const messages: Message[] = [user("first")];
    for (let i = 0; i < 12; i++) messages.push(agent(`${"z".repeat(600)} ${i}`), user(`pivot ${i} ${"w ".repeat(100)}`));
    messages.push(agent("last answer"));
    const exchanges = buildKeyExchanges(messages);
    expect(exchanges).toHaveLength(MAX_KEY_EXCHANGES);
    expect(exchanges[0]!.gist).toBe("first");
    expect(exchanges.at(-1)!.gist).toBe("last answer");
    expect(exchanges.every((e) => e.gist.length <= GIST_LENGTH)).toBe(true);
    expect(exchanges[1]!.gist.startsWith("pivot 7 ")).toBe(true);
  });

  it("redacts secrets in gists", () => {
    const [first] = buildKeyExchanges([user("deploy with token ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd")]);
    expect(first!.gist).toBe("deploy with token [REDACTED:github-token]");
  });
});

describe("buildThread", () => {
  it("is deterministic", () => {
    const messages = [user("Fix it"), agent("Done")];
    expect(buildThread(messages)).toEqual(buildThread(messages));
  });
});
