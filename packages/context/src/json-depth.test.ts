import { describe, expect, it } from "vitest";
import { boundJsonDepth, jsonDepthExceeds, jsonText, MAX_JSON_DEPTH } from "./json-depth.js";

function nested(depth: number, leaf: unknown = "x"): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe("JSON of any depth", () => {
  const samples: unknown[] = [
    null,
    0,
    -1.5e-7,
    true,
    "",
    'a\u0000"\\\n\ud800',
    [],
    {},
    [1, "two", null, { three: [3] }],
    { b: 1, a: [undefined, () => 1], u: undefined, f: () => 1, "k\u2028": { d: new Date(0) } },
    nested(200),
  ];

  it.each(samples.map((s) => [s]))("writes %j exactly as JSON.stringify does", (value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it("writes JSON 100,000 levels deep, where JSON.stringify overflows the stack", () => {
    const deep = nested(100_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = jsonText(deep);
    expect(text.length).toBeGreaterThan(300_000);
    expect(jsonText(JSON.parse(text))).toBe(text);
  });

  it("tells whether a value nests deeper than a limit, without recursion", () => {
    expect(jsonDepthExceeds("x", 0)).toBe(false);
    expect(jsonDepthExceeds({ a: 1 }, 0)).toBe(true);
    expect(jsonDepthExceeds(nested(3), 3)).toBe(false);
    expect(jsonDepthExceeds(nested(4), 3)).toBe(true);
    expect(jsonDepthExceeds(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it("bounds a value's depth, keeping the deeper part as its JSON text", () => {
    expect(boundJsonDepth({ a: [1, { b: 2 }] }, 5)).toEqual({ a: [1, { b: 2 }] });
    expect(boundJsonDepth({ a: [1, { b: 2 }], c: "d" }, 1)).toEqual({ a: '[1,{"b":2}]', c: "d" });
    const bounded = boundJsonDepth(nested(100_000), MAX_JSON_DEPTH);
    expect(jsonDepthExceeds(bounded, MAX_JSON_DEPTH)).toBe(false);
    expect(JSON.stringify(bounded).length).toBeGreaterThan(300_000);
  });
});
