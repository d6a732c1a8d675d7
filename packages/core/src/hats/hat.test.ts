import { describe, expect, it } from "vitest";
import { hatSchema, hatToolNames } from "./hat.js";

const available = ["read_file", "write_file", "task_complete", "mcp__github__create_issue", "mcp__github__search", "mcp__docs__lookup"];
const hat = (tools: string[]) => hatSchema.parse({ name: "h", description: "d", instructions: "i", tools });

describe("hatToolNames", () => {
  it("takes every tool for *, MCP tools included, and removes with !", () => {
    expect([...hatToolNames(hat(["*", "!task_complete"]), available)].sort()).toEqual(
      ["mcp__docs__lookup", "mcp__github__create_issue", "mcp__github__search", "read_file", "write_file"].sort(),
    );
  });

  it("matches a prefix ending in *, so a hat can allow one MCP server or remove one", () => {
    expect([...hatToolNames(hat(["read_file", "mcp__github__*"]), available)]).toEqual([
      "read_file",
      "mcp__github__create_issue",
      "mcp__github__search",
    ]);
    expect([...hatToolNames(hat(["mcp__*", "!mcp__github__create_issue"]), available)]).toEqual([
      "mcp__github__search",
      "mcp__docs__lookup",
    ]);
  });

  it("ignores names that are not available", () => {
    expect([...hatToolNames(hat(["read_file", "mcp__gone__x"]), available)]).toEqual(["read_file"]);
  });
});
