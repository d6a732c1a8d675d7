import { existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runTool, tempDir, toolContext, writeFiles } from "../test-support/fixtures.js";

describe("read_file", () => {
  it("numbers lines and reads a window with offset and limit", async () => {
    const root = tempDir();
    writeFiles(root, { "a.txt": "one\ntwo\nthree\nfour\n" });
    const all = await runTool("read_file", { path: "a.txt" }, toolContext(root));
    expect(all).toEqual({ isError: false, content: "1\tone\n2\ttwo\n3\tthree\n4\tfour" });
    const window = await runTool("read_file", { path: "a.txt", offset: 2, limit: 2 }, toolContext(root));
    expect(window.content).toBe("2\ttwo\n3\tthree\n[showing lines 2-3 of 4; read more with offset=4]");
  });

  it("says when the default line limit truncates", async () => {
    const root = tempDir();
    writeFiles(root, { "big.txt": Array.from({ length: 2_500 }, (_, i) => `line ${i + 1}`).join("\n") });
    const result = await runTool("read_file", { path: "big.txt" }, toolContext(root));
    expect(result.content).toContain("2000\tline 2000");
    expect(result.content).not.toContain("line 2001");
    expect(result.content).toMatch(/showing lines 1-2000 of 2500; read more with offset=2001/);
  });

  it("refuses binary files, directories, missing files and paths outside", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "img.bin"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    writeFiles(root, { "dir/x.txt": "x" });
    expect(await runTool("read_file", { path: "img.bin" }, toolContext(root))).toEqual({
      isError: true,
      content: 'file "img.bin" is binary (4 bytes) and cannot be shown as text',
    });
    expect((await runTool("read_file", { path: "dir" }, toolContext(root))).content).toMatch(/is a directory; use list_files/);
    expect((await runTool("read_file", { path: "nope.txt" }, toolContext(root))).content).toBe('file "nope.txt" does not exist');
    expect(await runTool("read_file", { path: "../x" }, toolContext(root))).toEqual({
      isError: true,
      content: 'path "../x" is outside the worktree',
    });
  });

  it("rejects invalid input with a clear message instead of throwing", async () => {
    const root = tempDir();
    const result = await runTool("read_file", { path: 42 }, toolContext(root));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^invalid input for read_file: path: /);
  });
});

describe("write_file", () => {
  it("creates parent directories and reports the changed file", async () => {
    const root = tempDir();
    const result = await runTool("write_file", { path: "deep/er/new.ts", content: "export {};\n" }, toolContext(root));
    expect(result).toMatchObject({ isError: false, meta: { changedFiles: ["deep/er/new.ts"] } });
    expect(result.content).toMatch(/^Created deep\/er\/new.ts/);
    expect(readFileSync(path.join(root, "deep/er/new.ts"), "utf8")).toBe("export {};\n");
    const again = await runTool("write_file", { path: "deep/er/new.ts", content: "x" }, toolContext(root));
    expect(again.content).toMatch(/^Overwrote/);
  });

  it("refuses .git, a symlink leading outside and paths outside", async () => {
    const root = tempDir();
    const outside = tempDir();
    symlinkSync(outside, path.join(root, "escape"));
    for (const p of [".git/HEAD", "escape/pwned.txt", "../pwned.txt", path.join(outside, "abs.txt")]) {
      const result = await runTool("write_file", { path: p, content: "x" }, toolContext(root));
      expect(result.isError, p).toBe(true);
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(root, "..", "pwned.txt"))).toBe(false);
  });
});

describe("edit_file", () => {
  it("replaces a unique occurrence and reports the line", async () => {
    const root = tempDir();
    writeFiles(root, { "a.ts": "const a = 1;\nconst b = 2;\n" });
    const result = await runTool("edit_file", { path: "a.ts", old_string: "b = 2", new_string: "b = 3" }, toolContext(root));
    expect(result).toEqual({ isError: false, content: "Replaced 1 occurrence in a.ts at line 2", meta: { changedFiles: ["a.ts"] } });
    expect(readFileSync(path.join(root, "a.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("refuses an ambiguous match unless replace_all is set", async () => {
    const root = tempDir();
    writeFiles(root, { "a.ts": "x();\ny();\nx();\n" });
    const ambiguous = await runTool("edit_file", { path: "a.ts", old_string: "x();", new_string: "z();" }, toolContext(root));
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.content).toContain('old_string occurs 2 times in "a.ts" (lines 1, 3)');
    expect(ambiguous.content).toContain("replace_all");
    expect(readFileSync(path.join(root, "a.ts"), "utf8")).toBe("x();\ny();\nx();\n");

    const all = await runTool("edit_file", { path: "a.ts", old_string: "x();", new_string: "z();", replace_all: true }, toolContext(root));
    expect(all.content).toBe("Replaced 2 occurrences in a.ts");
    expect(readFileSync(path.join(root, "a.ts"), "utf8")).toBe("z();\ny();\nz();\n");
  });

  it("says when old_string is not found, and keeps $ patterns literal", async () => {
    const root = tempDir();
    writeFiles(root, { "a.ts": "let price = 1;\n" });
    const missing = await runTool("edit_file", { path: "a.ts", old_string: "let cost", new_string: "x" }, toolContext(root));
    expect(missing.isError).toBe(true);
    expect(missing.content).toMatch(/old_string was not found in "a.ts"; read the file again/);
    await runTool("edit_file", { path: "a.ts", old_string: "1", new_string: "$&$1" }, toolContext(root));
    expect(readFileSync(path.join(root, "a.ts"), "utf8")).toBe("let price = $&$1;\n");
  });

  it("matches LF text in a CRLF file", async () => {
    const root = tempDir();
    writeFiles(root, { "w.txt": "a\r\nb\r\nc\r\n" });
    const result = await runTool("edit_file", { path: "w.txt", old_string: "a\nb", new_string: "a\nB" }, toolContext(root));
    expect(result.isError).toBe(false);
    expect(readFileSync(path.join(root, "w.txt"), "utf8")).toBe("a\r\nB\r\nc\r\n");
  });

  it("refuses a missing file and an identical replacement", async () => {
    const root = tempDir();
    expect((await runTool("edit_file", { path: "no.ts", old_string: "a", new_string: "b" }, toolContext(root))).content).toMatch(
      /does not exist; use write_file/,
    );
    writeFiles(root, { "a.ts": "a" });
    expect((await runTool("edit_file", { path: "a.ts", old_string: "a", new_string: "a" }, toolContext(root))).content).toMatch(
      /identical/,
    );
  });
});
