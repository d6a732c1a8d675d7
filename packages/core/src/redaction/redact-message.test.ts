import { jsonDepthExceeds, MAX_JSON_DEPTH } from "@hatloop/context";
import { describe, expect, it } from "vitest";
import { redactValue } from "./redact-message.js";

describe("redactValue", () => {
  it("walks a value 100,000 levels deep without recursion past MAX_JSON_DEPTH, redacting the deep part as text", () => {
    let value: unknown = { password: "hunter2-secret" };
    for (let i = 0; i < 100_000; i++) value = [value];
    const redacted = redactValue(value);
    expect(jsonDepthExceeds(redacted, MAX_JSON_DEPTH)).toBe(false);
    let deepest = redacted;
    while (Array.isArray(deepest)) deepest = deepest[0];
    expect(deepest).toMatch(/^\[+\{"password":"\[REDACTED:password\]"\}\]+$/);
  });

  it("leaves a shallow value as it is", () => {
    const value = { a: [1, { b: "text" }] };
    expect(redactValue(value)).toBe(value);
  });
});
