import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import type { Message } from "../messages.js";
import { factKey, parseStatement } from "./fact-statement.js";
import { extractFactCandidates } from "./facts-extract.js";

const user = (text: string): Message => ({ role: "user", content: text });
const agent = (text: string): Message => ({ role: "assistant", content: text });
const toolOutput = (text: string): Message => ({ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: text }] });

describe("parseStatement", () => {
  it("keys 'X is Y' statements about technical subjects by subject", () => {
    expect(parseStatement("The API port is 3000.")).toEqual({ key: "api-port", value: "3000", type: "config" });
    expect(parseStatement("The entry point is `src/index.ts`")).toMatchObject({ key: "entry-point", value: "src/index.ts" });
  });

  it("keys 'use X for Y' by purpose and never/always rules by their action", () => {
    expect(parseStatement("Use pnpm for package management")).toEqual({
      key: "use-for:package-management",
      value: "pnpm",
      type: "decision",
    });
    expect(parseStatement("Never commit directly to main")).toMatchObject({
      key: "rule:commit-directly-main",
      value: "never",
      type: "constraint",
    });
    expect(parseStatement("Always commit directly to main")).toMatchObject({ key: "rule:commit-directly-main", value: "always" });
  });

  it("reads config assignments", () => {
    expect(parseStatement("API_PORT=4000")).toEqual({ key: "api-port", value: "4000", type: "config" });
    expect(parseStatement("Set the request timeout to 30s")).toMatchObject({ key: "request-timeout", value: "30s" });
  });

  it("ignores questions, speculation and chit-chat", () => {
    expect(parseStatement("Is the port 3000?")).toBeNull();
    expect(parseStatement("The port is probably 3000")).toBeNull();
    expect(parseStatement("This is great")).toBeNull();
    expect(parseStatement("The weather is nice today")).toBeNull();
    // Narration of what the agent is doing is not a statement about a subject.
    expect(parseStatement("Checking where parseRow is called from.")).toBeNull();
    expect(parseStatement("Let me look at how loadConfig is wired before changing anything.")).toBeNull();
    expect(parseStatement("Routing config is in src/routes.ts")).toMatchObject({ key: "routing-config", value: "in src/routes.ts" });
  });

  it("gives notes a key made of their sorted keywords", () => {
    expect(factKey("Vitest runs with globals off")).toBe("note:globals-off-runs-vitest");
  });
});

describe("extractFactCandidates", () => {
  it("reads MEMORY:<type>:<text> signals", () => {
    const facts = extractFactCandidates([
      agent("Done.\nMEMORY:pitfall:The tokenizer drops trailing newlines\n- MEMORY:convention:Tests sit next to source"),
    ]);
    expect(facts.map(({ type, content }) => ({ type, content }))).toEqual([
      { type: "pitfall", content: "The tokenizer drops trailing newlines" },
      { type: "convention", content: "Tests sit next to source" },
    ]);
  });

  it("reads constraint and config sentences from the user and the assistant", () => {
    const facts = extractFactCandidates([user("Never push to main. The API port is 3000."), agent("I'll use vitest for unit tests.")]);
    expect(facts.map((f) => f.key)).toEqual(["rule:main-push", "api-port"]);
  });

  it("does not read facts from injected text or from code", () => {
    const facts = extractFactCandidates([user(`${MARKERS.summary}\nThe API port is 3000.`), agent("```\nThe API port is 9999.\n```")]);
    expect(facts).toEqual([]);
  });

  it("reads failing test names from tool output", () => {
    const output = [
      " FAIL  src/parser.test.ts > parser > keeps trailing newlines",
      "FAILED tests/test_api.py::test_login - AssertionError",
      "--- FAIL: TestRouter (0.01s)",
      " ✓ src/ok.test.ts > passes 3ms",
    ].join("\n");
    const facts = extractFactCandidates([toolOutput(output)]);
    expect(facts.map((f) => f.content)).toEqual([
      "Failing test: src/parser.test.ts > parser > keeps trailing newlines",
      "Failing test: tests/test_api.py::test_login",
      "Failing test: TestRouter",
    ]);
    expect(facts.every((f) => f.type === "issue" && f.key.startsWith("test:"))).toBe(true);
  });

  it("reports a known failing test that now passes", () => {
    const [failing] = extractFactCandidates([toolOutput("--- FAIL: TestRouter (0.01s)")]);
    const facts = extractFactCandidates([toolOutput("--- PASS: TestRouter (0.01s)\n--- PASS: TestOther (0.01s)")], {
      knownKeys: [failing!.key],
    });
    expect(facts).toEqual([{ key: failing!.key, type: "task_state", content: "Test now passes: TestRouter", seq: 500 }]);
  });

  it("never extracts secrets", () => {
    const facts = extractFactCandidates([
      user("The API token is ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd"),
      agent("MEMORY:config:DB_PASSWORD=hunter2!"),
    ]);
    expect(facts).toEqual([]);
  });

  it("orders by position so later statements are newer", () => {
    const facts = extractFactCandidates([user("The API port is 3000."), agent("Done."), user("The API port is 4000.")]);
    expect(facts.map((f) => f.seq)).toEqual([0, 2000]);
  });
});
