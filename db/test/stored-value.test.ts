import { describe, expect, it } from "vitest";
import { jsonText } from "@hatloop/context";
import { escapeJson, escapeText, searchableWords, unescapeJson, unescapeText } from "../src/stored-value.js";

// The escaping every text and jsonb column goes through: exact round trips for any string, and
// nothing left that Postgres refuses.

// eslint-disable-next-line no-control-regex -- NUL is one of the characters Postgres cannot store
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A random string of code units drawn from the awkward ones and ordinary text. */
function randomText(seed: number, length: number): string {
  const pool = ["\u0000", "\ud800", "\udbff", "\udc00", "\udfff", "\uffff", "0", "u", "d", "8", "a", " ", "é", "😀", "\ufffe"];
  let state = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += pool[state % pool.length];
  }
  return out;
}

describe("stored values", () => {
  it("round-trip any string exactly, leaving nothing Postgres refuses", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const text = randomText(seed, 40);
      const stored = escapeText(text);
      expect(stored).not.toMatch(UNSTORABLE);
      expect(unescapeText(stored)).toBe(text);
    }
  });

  it("leave ordinary text as it is, so rows written before read back unchanged", () => {
    const text = "plain text, émoji 😀, tabs\tand\nnewlines";
    expect(escapeText(text)).toBe(text);
    expect(unescapeText(text)).toBe(text);
  });

  it("round-trip JSON with awkward keys and values, and JSON 100,000 levels deep", () => {
    const value = { [`k\u0000`]: [`v\ud800`, 1, null, true, { "\uffffjson": "not a marker" }], plain: "x" };
    expect(unescapeJson(JSON.parse(JSON.stringify(escapeJson(value))))).toEqual(value);
    let deep: unknown = "leaf\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const stored = JSON.parse(JSON.stringify(escapeJson(deep))) as unknown;
    expect(jsonText(unescapeJson(stored))).toBe(jsonText(deep)); // toEqual itself recurses too deep here
  });

  it("turn what no column holds into spaces in search words", () => {
    expect(searchableWords("zebra\u0000quagga\ud800okapi")).toBe("zebra quagga okapi");
  });
});
