import { describe, expect, it } from "vitest";
import { tempDir, toolContext } from "./test-support/fixtures.js";
import { TOOL_NAMES, createToolset } from "./toolset.js";

describe("createToolset", () => {
  it("returns every tool in TOOL_NAMES order with a description and an object schema", () => {
    const tools = createToolset();
    expect(tools.map((t) => t.spec.name)).toEqual([...TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.spec.description.length, tool.spec.name).toBeGreaterThan(40);
      expect(tool.spec.inputSchema.type).toBe("object");
      expect(JSON.stringify(tool.spec.inputSchema)).not.toMatch(/\$schema|9007199254740991/);
    }
    const read = tools.find((t) => t.spec.name === "read_file")!;
    expect(read.spec.inputSchema.required).toEqual(["path"]);
  });

  it("never throws: bad input and an aborted signal come back as error results", async () => {
    const controller = new AbortController();
    controller.abort();
    for (const tool of createToolset()) {
      // Wrong types for every tool's inputs; git_status takes none and fails outside a repository.
      const bad = await tool.run({ path: 1, command: 2, pattern: 3, summary: 4, query: 5, max: "x", content: 6 }, toolContext(tempDir()));
      expect(bad.isError, tool.spec.name).toBe(true);
      const aborted = await tool.run({}, toolContext(tempDir(), { signal: controller.signal }));
      expect(aborted).toEqual({ isError: true, content: `${tool.spec.name} was not run: the iteration was aborted` });
    }
  });
});
