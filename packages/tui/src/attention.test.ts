import { describe, expect, it } from "vitest";
import { attentionFor, attentionSequence } from "./attention.js";
import { event } from "./test-support/fixtures.js";

describe("attention", () => {
  it("names the moments that need the user: completed, failed, a budget pause, a health stop", () => {
    expect(attentionFor(event("session.end", { status: "completed", reason: "task complete", iterations: 3, costUsd: 0 }, 3))).toBe(
      "hatloop 1a2b3c4d: completed",
    );
    expect(attentionFor(event("session.end", { status: "paused", reason: "budget:cost", iterations: 3, costUsd: 5 }, 3))).toBe(
      "hatloop 1a2b3c4d: paused at its cost budget",
    );
    expect(attentionFor(event("health.warning", { kind: "repetition", level: "stop", message: "x" }, 3))).toMatch(/loop health stop/);
    expect(
      attentionFor(event("session.end", { status: "paused", reason: "stopped by the user", iterations: 3, costUsd: 0 }, 3)),
    ).toBeNull();
    expect(attentionFor(event("tool.call", { id: "t", name: "read_file", summary: "x" }, 3))).toBeNull();
  });

  it("rings with OSC 9, OSC 777 and the bell, with content that cannot end the sequence", () => {
    const seq = attentionSequence("done \x07\x1b]52;c;x\x07; ok");
    expect(seq).toBe("\x1b]9;done ??]52,c,x?, ok\x07\x1b]777;notify;hatloop;done ??]52,c,x?, ok\x07\x07");
  });

  it("inside tmux, wraps each notification in tmux's passthrough with its ESC doubled; the bell stays tmux's", () => {
    expect(attentionSequence("done", true)).toBe(
      "\x1bPtmux;\x1b\x1b]9;done\x07\x1b\\\x1bPtmux;\x1b\x1b]777;notify;hatloop;done\x07\x1b\\\x07",
    );
  });
});
