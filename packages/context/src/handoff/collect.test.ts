import { describe, expect, it } from "vitest";
import type { Message } from "../messages.js";
import { parseScratchpad } from "./scratchpad.js";
import { collectDecisions, keyDecisionsOf } from "./collect.js";

const say = (role: Message["role"], text: string): Message => ({ role, content: [{ type: "text", text }] });

describe("collectDecisions", () => {
  it("takes the person's rules and choices as theirs, and several choices from one response", () => {
    const decisions = collectDecisions(
      [],
      [
        say("user", "Update the status a bit, we aren't to use cufft. Instead we have to roll the whole convolution ourselves."),
        say(
          "assistant",
          "We won't link cuFFT because the convolution must follow VSLA.\n- **Kernel**: switch to a radix-2 FFT in plain CUDA",
        ),
      ],
      parseScratchpad(""),
    ).map((d) => d.what);
    expect(decisions).toContain("The user: Instead we have to roll the whole convolution ourselves.");
    expect(decisions).toContain("Kernel: switch to a radix-2 FFT in plain CUDA");
    expect(decisions).toContain("We won't link cuFFT because the convolution must follow VSLA.");
  });
});

describe("keyDecisionsOf", () => {
  const decisions = Array.from({ length: 12 }, (_, i) => ({
    id: `d${i + 1}`,
    what: `Decision ${i + 1} about module_${i + 1}`,
    when: null,
  }));

  it("keeps all of them when they fit", () => {
    expect(keyDecisionsOf(decisions.slice(0, 3))).toEqual(decisions.slice(0, 3).map((d) => d.what));
  });

  it("ranks by what the recent messages still use, not by age", () => {
    const recent = [say("assistant", "Editing module_2 again; module_2 and module_5 still read the old layout.")];
    const key = keyDecisionsOf(decisions, recent, 3);
    expect(key.slice(0, 2).sort()).toEqual(["Decision 2 about module_2", "Decision 5 about module_5"]);
    // The rest by age, newest first.
    expect(key[2]).toBe("Decision 12 about module_12");
  });
});
