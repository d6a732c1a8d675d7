import { describe, expect, it } from "vitest";
import { toToolResult } from "./tool-result-text.js";

describe("an MCP tool's answer as text", () => {
  it("joins text, names binary content instead of inlining it, and falls back to structured content", () => {
    const result = toToolResult({
      content: [
        { type: "text", text: "found 2" },
        { type: "image", data: "A".repeat(400), mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.md", text: "# A" } },
        { type: "resource_link", uri: "file:///b.bin", name: "b" },
      ],
    });
    expect(result).toEqual({
      isError: false,
      content: "found 2\n\n[image image/png, 300 bytes, not shown]\n\n[resource file:///a.md]\n# A\n\n[resource link file:///b.bin (b)]",
    });
    expect(toToolResult({ content: [], structuredContent: { n: 1 }, isError: true })).toEqual({ isError: true, content: '{\n  "n": 1\n}' });
    expect(toToolResult({ content: [] }).content).toBe("(the tool returned nothing)");
  });
});
