import { describe, expect, it } from "vitest";
import { expandPathTree, pathTree } from "./path-tree.js";

describe("pathTree", () => {
  it("groups files by directory, folding one-file directories into their parent, and reads back exactly", () => {
    const paths = [
      "src/auth/login.ts",
      "src/auth/token.ts (new)",
      "src/api/user.ts",
      "src/db/pool.ts",
      "README.md",
      "test/auth.test.ts (deleted)",
      "test/api.test.ts",
    ];
    const lines = pathTree(paths);
    expect(lines).toEqual([
      "src/auth/: login.ts, token.ts (new)",
      "src/: api/user.ts, db/pool.ts",
      "README.md",
      "test/: auth.test.ts (deleted), api.test.ts",
    ]);
    expect(expandPathTree(lines.map((l) => `- ${l}`)).sort()).toEqual(paths.map((p) => p.replace(/ \((new|deleted)\)$/, "")).sort());
  });

  it("shares deep prefixes of many one-file directories", () => {
    const paths = Array.from({ length: 50 }, (_, i) => `packages/legacy/src/module-${i}/implementation-${i}.ts`);
    const lines = pathTree(paths);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith("packages/legacy/src/: module-0/implementation-0.ts, ")).toBe(true);
    expect(expandPathTree(lines)).toEqual(paths);
  });

  it("keeps the leading / of absolute paths, folded or not", () => {
    const paths = ["/a/x/1.md", "/Users/s/p/M.md"];
    const lines = pathTree(paths);
    expect(lines).toEqual(["/: a/x/1.md, Users/s/p/M.md"]);
    expect(expandPathTree(lines)).toEqual(paths);
    const mixed = ["/srv/app/a.ts", "/srv/app/b.ts", "/etc/hosts", "src/c.ts"];
    const mixedLines = pathTree(mixed);
    expect(mixedLines.some((l) => l.includes("Users") || l.startsWith("etc"))).toBe(false);
    expect(expandPathTree(mixedLines).sort()).toEqual([...mixed].sort());
  });
});
