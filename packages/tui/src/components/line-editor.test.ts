import { describe, expect, it } from "vitest";
import { applyKey, draftWindow, EMPTY_DRAFT, typeText } from "./line-editor.js";

describe("the steering line editor", () => {
  it("applies Backspaces that arrive in one read with the text, never passing DEL on", () => {
    const d = typeText(EMPTY_DRAFT, "keep it smal\x7f\x7fmall\x7f\x7f\x7f\x7fall");
    expect(d.text).toBe("keep it small");
    expect(d.text).not.toContain("\x7f");
  });

  it("edits at the cursor and drops control characters", () => {
    let d = typeText(EMPTY_DRAFT, "one three");
    for (let i = 0; i < 5; i++) d = applyKey(d, "left");
    d = typeText(d, "two \x1b\x07");
    expect(d).toEqual({ text: "one two three", cursor: 8 });
    expect(applyKey(d, "kill-word").text).toBe("one three");
    expect(applyKey(d, "kill-start")).toEqual({ text: "three", cursor: 0 });
  });

  it("scrolls a long draft sideways so the end being typed is visible", () => {
    const d = typeText(EMPTY_DRAFT, `${"a".repeat(100)}THE END`);
    const w = draftWindow(d, 30);
    expect(w.before.startsWith("…")).toBe(true);
    expect(w.before.endsWith("THE END")).toBe(true);
    expect((w.before + w.at + w.after).length).toBe(30);
    const home = draftWindow(applyKey(d, "home"), 30);
    expect(home.before).toBe("");
    expect(home.after.endsWith("…")).toBe(true);
  });
});
