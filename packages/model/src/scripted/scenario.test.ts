import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadScenario, parseScenario, ScenarioError } from "./scenario.js";

describe("parseScenario", () => {
  it("reads the header, turns, failures and the summary queue, skipping blanks and comments", () => {
    const scenario = parseScenario(
      [
        "// comment",
        '{"scenario": {"model": "claude-haiku-4-5", "name": "t"}}',
        "",
        '{"text": "hi", "delay_ms": 5}',
        "  // indented comment",
        '{"error": {"status": 529, "retry_after_s": 0.5}}',
        '{"tools": [{"name": "run", "input": {"cmd": "ls"}}], "stop": "tool_use"}',
        '{"for": "summary", "text": "sum"}',
      ].join("\n"),
      "s.jsonl",
    );
    expect(scenario).toMatchObject({ source: "s.jsonl", name: "t", model: "claude-haiku-4-5" });
    expect(scenario.main).toEqual([
      { kind: "turn", line: 4, text: "hi", tools: [], usage: undefined, delayMs: 5 },
      { kind: "error", line: 6, status: 529, retryAfterMs: 500 },
      { kind: "turn", line: 7, text: "", tools: [{ name: "run", input: { cmd: "ls" } }], usage: undefined, stop: "tool_use", delayMs: 0 },
    ]);
    expect(scenario.summary).toEqual([{ kind: "turn", line: 8, text: "sum", tools: [], usage: undefined, delayMs: 0 }]);
  });

  it.each([
    ['{"text": "a"}\n{"text": ', "s.jsonl:2: invalid JSON"],
    ['{"text": "a"}\n\n[1, 2]', "s.jsonl:3: expected a JSON object"],
    ['{"txt": "typo"}', "s.jsonl:1: Unrecognized key"],
    ['{"text": ""}', "s.jsonl:1: a turn needs text or tools"],
    ['{"text": "a", "stop": "done"}', "s.jsonl:1: stop: Invalid option"],
    ['{"error": {"status": 200}}', "s.jsonl:1: error.status:"],
    ['{"text": "a"}\n{"scenario": {"model": "m"}}', "s.jsonl:2: the scenario header must come before the turns"],
  ])("rejects %j with a one-line error naming file and line", (text, expected) => {
    let caught: unknown;
    try {
      parseScenario(text, "s.jsonl");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScenarioError);
    const message = (caught as ScenarioError).message;
    expect(message.startsWith(expected)).toBe(true);
    expect(message).not.toContain("\n");
  });
});

describe("loadScenario", () => {
  it("loads the example scenario shipped with the package", async () => {
    const path = fileURLToPath(new URL("../../examples/scenario.jsonl", import.meta.url));
    const scenario = await loadScenario(path);
    expect(scenario.main.map((s) => s.kind)).toEqual(["turn", "error", "turn"]);
    expect(scenario.summary).toHaveLength(1);
  });

  it("names the file in errors", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hatloop-scenario-"));
    const path = join(dir, "bad.jsonl");
    await writeFile(path, '{"text": "ok"}\nnot json\n');
    await expect(loadScenario(path)).rejects.toThrow(`${path}:2: invalid JSON`);
    await expect(loadScenario(join(dir, "missing.jsonl"))).rejects.toThrow("ENOENT");
  });
});
