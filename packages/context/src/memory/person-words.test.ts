import { describe, expect, it } from "vitest";
import { personWords, VERBATIM_CHARS } from "./person-words.js";

describe("personWords", () => {
  it("keeps every message, whole up to the cap, a longer one as its opening and a recall pointer", () => {
    const long = `Maintain a curated MEMORY.md at the project root. ${"Details follow. ".repeat(300)}`;
    const kept = personWords(["use pnpm", long]);
    expect(kept[0]).toBe("use pnpm");
    expect(kept[1]!.startsWith(long.slice(0, VERBATIM_CHARS))).toBe(true);
    expect(kept[1]).toMatch(/… \[\d+ more characters, stored: recall "Maintain a curated MEMORY.md at the"\]$/);
  });

  it("shortens the oldest first when all of them exceed the budget, never the newest", () => {
    const messages = Array.from({ length: 40 }, (_, i) => `${i}: ${"x".repeat(1_400)}`);
    const kept = personWords(messages);
    expect(kept).toHaveLength(40);
    expect(kept.at(-1)).toBe(messages.at(-1));
    expect(kept[0]!.length).toBeLessThan(450);
    expect(kept.join("").length).toBeLessThan(26_000);
  });
});
