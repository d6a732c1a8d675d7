import { describe, expect, it } from "vitest";
import { buildHandoff } from "./build.js";
import { parseHandoffJson, renderHandoffJson } from "./render-json.js";
import { renderHandoffMarkdown } from "./render-markdown.js";
import { parseHandoffYaml, renderHandoffYaml } from "./render-yaml.js";
import { renderResumePacket } from "./resume-packet.js";
import { validateHandoff } from "./validate.js";
import type { Message } from "../messages.js";

const git = { branch: "hatloop/1a2b3c4d", headCommit: "a".repeat(40), modifiedFiles: ["src/auth.ts"], createdFiles: [] };

const messagesWithFailure: Message[] = [
  { role: "user", content: "make the flaky auth test deterministic" },
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "run_command", input: { command: "npm test" } }] },
  {
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_use_id: "t1",
        is_error: true,
        content: "> test\n✖ refresh keeps the session\nAssertionError: expected 200 to equal 401",
      },
    ],
  },
];

describe("the user's instructions and the last failure", () => {
  const handoff = buildHandoff({
    generatedAt: "2026-11-23T12:00:00Z",
    task: { title: "make the flaky auth test deterministic" },
    instructions: ["never touch migrations/", "use fake timers: 'vi.useFakeTimers()', not sleeps", "never touch migrations/"],
    hat: "creator",
    git,
    messages: messagesWithFailure,
  });

  it("keeps the instructions verbatim, once each, and the failure line of the newest failing result", () => {
    expect(handoff.instructions).toEqual(["use fake timers: 'vi.useFakeTimers()', not sleeps", "never touch migrations/"]);
    expect(handoff.working.last_failure).toBe("✖ refresh keeps the session — AssertionError: expected 200 to equal 401");
  });

  it("round-trips both through JSON and YAML, and reads handoffs written before they existed", () => {
    expect(parseHandoffYaml(renderHandoffYaml(handoff))).toEqual(handoff);
    expect(parseHandoffJson(renderHandoffJson(handoff))).toEqual(handoff);
    const { instructions: _i, ...older } = handoff;
    const { last_failure: _l, ...olderWorking } = handoff.working;
    expect(validateHandoff({ ...older, working: olderWorking })).toMatchObject({ instructions: [], working: { last_failure: null } });
  });

  it("shows both to people and in the resume packet", () => {
    expect(renderHandoffMarkdown(handoff)).toContain("## What the user said after the task");
    expect(renderHandoffMarkdown(handoff)).toContain(
      "- Last failure: ✖ refresh keeps the session — AssertionError: expected 200 to equal 401",
    );
    const packet = renderResumePacket(handoff);
    expect(packet).toContain("never touch migrations/");
    expect(packet).toContain("**Last failure seen**: ✖ refresh keeps the session — AssertionError: expected 200 to equal 401");
  });

  it("keeps the previous handoff's failure while the live context shows none, and prefers a newer one", () => {
    const base = { generatedAt: "2026-11-23T12:00:00Z", task: { title: "t" }, hat: "creator", git };
    expect(
      buildHandoff({ ...base, messages: [{ role: "user", content: "t" }], lastFailure: "FAIL a.test.ts > old" }).working.last_failure,
    ).toBe("FAIL a.test.ts > old");
    expect(buildHandoff({ ...base, messages: messagesWithFailure, lastFailure: "FAIL a.test.ts > old" }).working.last_failure).toBe(
      "✖ refresh keeps the session — AssertionError: expected 200 to equal 401",
    );
    expect(buildHandoff({ ...base, messages: [] }).working.last_failure).toBeNull();
  });
});
