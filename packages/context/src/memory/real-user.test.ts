import { describe, expect, it } from "vitest";
import { FOREIGN_MARKERS, MARKERS } from "../markers.js";
import type { Message } from "../messages.js";
import { isInjectedText, isRealUserMessage, realUserText } from "./real-user.js";

const user = (content: Message["content"]): Message => ({ role: "user", content });

const INJECTED: Record<Exclude<keyof typeof MARKERS, "steer">, string> = {
  gauge: `${MARKERS.gauge}81% | 162k/200k tokens | Checkpoint saved]`,
  resume: `${MARKERS.resume}\n\n**Task**: Fix the flaky parser test`,
  summary: `${MARKERS.summary}\n- Called read_file\n- Decision: use vitest`,
  recalled: `${MARKERS.recalled} source="memory">\n<detail>old stuff</detail>\n</recalled-context>`,
  removedResult: `${MARKERS.removedResult} #42: 300 lines of test output]`,
  continuation: `${MARKERS.continuation} Iteration 7. Continue with the next checklist item.`,
};

describe("isRealUserMessage", () => {
  it("passes what a person wrote", () => {
    expect(isRealUserMessage(user("Please fix the flaky parser test"))).toBe(true);
    expect(isRealUserMessage(user([{ type: "text", text: "Also update the README" }]))).toBe(true);
  });

  it("passes steering messages typed in the TUI", () => {
    expect(isRealUserMessage(user(`${MARKERS.steer} stop refactoring, just fix the bug`))).toBe(true);
  });

  for (const [kind, text] of Object.entries(INJECTED)) {
    it(`rejects injected ${kind} text`, () => {
      expect(isRealUserMessage(user(text))).toBe(false);
      expect(isRealUserMessage(user([{ type: "text", text: `\n  ${text}` }]))).toBe(false);
    });
  }

  it("covers every marker kind except steering", () => {
    expect(Object.keys(INJECTED).sort()).toEqual(
      Object.keys(MARKERS)
        .filter((k) => k !== "steer")
        .sort(),
    );
  });

  it("rejects tool-result-only messages", () => {
    expect(isRealUserMessage(user([{ type: "tool_result", tool_use_id: "t1", content: "Please fix everything" }]))).toBe(false);
  });

  it("rejects tool results followed only by injected text", () => {
    const message = user([
      { type: "tool_result", tool_use_id: "t1", content: "ok" },
      { type: "text", text: INJECTED.gauge },
    ]);
    expect(isRealUserMessage(message)).toBe(false);
  });

  it("rejects assistant messages and empty text", () => {
    expect(isRealUserMessage({ role: "assistant", content: "I will fix it" })).toBe(false);
    expect(isRealUserMessage(user("   "))).toBe(false);
    expect(isRealUserMessage(user(MARKERS.steer))).toBe(false);
  });

  it("recognises markers in either case", () => {
    expect(isRealUserMessage(user("## Compacted history (iterations 3-9)\n- Called read_file"))).toBe(false);
    expect(isRealUserMessage(user("## COMPACTED HISTORY\nblob"))).toBe(false);
  });

  it("does not mistake a marker in the middle of a sentence for injection", () => {
    expect(isRealUserMessage(user(`Why does the gauge say ${MARKERS.gauge}81%?`))).toBe(true);
  });
});

// The tests docs/design/checkpoint-quality.md asks for; the injected text is as other agents write it.
describe("isRealUserMessage", () => {
  it("passes real user messages", () => {
    expect(isRealUserMessage(user("Send Grigorije a plan for the migration"))).toBe(true);
    expect(isRealUserMessage(user("Token budget: keep it under 5k, please"))).toBe(true);
  });

  it("rejects `<checkpoint-data` content", () => {
    expect(isRealUserMessage(user('<checkpoint-data session="main">\nschema: openclaw/checkpoint\n</checkpoint-data>'))).toBe(false);
    expect(isRealUserMessage(user('Resuming.\n<checkpoint-data session="main">{"decisions":[]}</checkpoint-data>'))).toBe(false);
    expect(isRealUserMessage(user("---\nschema: openclaw/checkpoint\nversion: 2\n---"))).toBe(false);
  });

  it("rejects compaction summaries", () => {
    expect(isRealUserMessage(user("Summary unavailable: the summarizer timed out."))).toBe(false);
    expect(isRealUserMessage(user("This summary covers messages 1-240 of the session."))).toBe(false);
  });

  it("rejects token gauge lines", () => {
    expect(isRealUserMessage(user("Token utilization: 81% (162k/200k)"))).toBe(false);
    expect(isRealUserMessage(user("## Token Gauge\n81% used"))).toBe(false);
  });

  it("matches the other agents' markers exactly as those agents write them", () => {
    // Start-of-text markers only at the start, and in their case.
    expect(isRealUserMessage(user("Why does it print Token utilization: 81%?"))).toBe(true);
    expect(isRealUserMessage(user("this summary covers too little, add the errors"))).toBe(true);
    expect(isInjectedText("  Summary unavailable")).toBe(true);
  });

  it("lists them beside MARKERS", () => {
    expect(FOREIGN_MARKERS.map((m) => m.text)).toEqual(
      expect.arrayContaining([
        "<checkpoint-data",
        "schema: openclaw/checkpoint",
        "Summary unavailable",
        "This summary covers",
        "Token utilization:",
        "## Token Gauge",
      ]),
    );
  });
});

describe("realUserText", () => {
  it("returns the person's words without the steering marker", () => {
    expect(realUserText(user(`${MARKERS.steer} use pnpm, not npm`))).toBe("use pnpm, not npm");
  });

  it("keeps only human text blocks", () => {
    const message = user([
      { type: "text", text: INJECTED.gauge },
      { type: "text", text: "Ship it today" },
    ]);
    expect(realUserText(message)).toBe("Ship it today");
    expect(isInjectedText(INJECTED.gauge)).toBe(true);
  });
});

describe("other agents' injected context", () => {
  it("cuts tagged segments out and keeps the person's words beside them", () => {
    const reminder =
      "<system-reminder>\nToday is 2026-07-13, and the current working directory is '~/tmp'.\n</system-reminder>\nwhere is the working directory?";
    expect(realUserText(user(reminder))).toBe("where is the working directory?");
    expect(isRealUserMessage(user("<environment_details>\n# Visible Files\nsrc/a.ts\n</environment_details>"))).toBe(false);
    expect(isRealUserMessage(user("<permissions instructions>\nFilesystem sandboxing\n</permissions instructions>"))).toBe(false);
    expect(realUserText(user("<task>\nFix the build\n</task>"))).toBe("<task>\nFix the build\n</task>");
  });

  it("rejects blocks other agents start with their own headers", () => {
    for (const marker of FOREIGN_MARKERS.filter((m) => m.at === "start"))
      expect(isRealUserMessage(user(`${marker.text} more`))).toBe(false);
  });
});
