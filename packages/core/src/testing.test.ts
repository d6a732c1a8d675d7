import { describe, expect, it, vi } from "vitest";
import { requireOrSkip } from "./testing.js";

describe("requireOrSkip", () => {
  it("runs a test whose need is met, skips one whose need is not, and under CI refuses to skip it", () => {
    vi.stubEnv("CI", "");
    expect(requireOrSkip(true, "tmux")).toBe(true);
    expect(requireOrSkip(false, "tmux")).toBe(false);
    vi.stubEnv("CI", "false");
    expect(requireOrSkip(false, "tmux")).toBe(false);
    vi.stubEnv("CI", "true");
    expect(requireOrSkip(true, "tmux")).toBe(true);
    expect(() => requireOrSkip(false, "tmux")).toThrow(
      "CI: this machine lacks tmux; under CI the tests that need it fail instead of skipping",
    );
  });
});
