import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { HeadTailBuffer, capHeadTail } from "./cap-output.js";
import { createGlobMatcher } from "./glob.js";

describe("glob", () => {
  it.each([
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "src/deep/a.ts", true],
    ["src/*.ts", "src/deep/a.ts", false],
    ["src/**", "src/deep/a.ts", true],
    ["*.{ts,tsx}", "App.tsx", true],
    ["file?.md", "file1.md", true],
    ["[ab].txt", "c.txt", false],
    ["a.ts", "aXts", false],
  ])("%s matches %s: %s", (glob, p, expected) => {
    expect(createGlobMatcher(glob)(p)).toBe(expected);
  });

  it("matches file names at any depth when the pattern has no slash", () => {
    const match = createGlobMatcher("*.test.ts");
    expect(match("src/a/b.test.ts")).toBe(true);
    expect(match("src/a/b.ts")).toBe(false);
    expect(createGlobMatcher("./src/*.ts")("src/a.ts")).toBe(true);
  });

  // Where glob libraries disagree (picomatch's defaults, bash, .gitignore), the semantics hatloop keeps.
  it.each([
    // ** spans zero or more whole directories, never part of a name.
    ["src/**/*.test.ts", "src/a.test.ts", true],
    ["src/**/*.test.ts", "src/a/b/c.test.ts", true],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a/**/b", "a/xb", false],
    ["**/node_modules/**", "node_modules/y.js", true],
    ["src/**", "srcs/a.ts", false],
    // Dot files and dot directories match like any other name.
    ["*.ts", ".eslintrc.ts", true],
    ["*", ".env", true],
    ["**/*.yml", ".github/workflows/ci.yml", true],
    ["src/*", "src/.env", true],
    // Braces alternate, also in directories and nested in a path.
    ["{src,lib}/**/*.js", "lib/y/z.js", true],
    ["{a,b}/{c,d}.ts", "b/d.ts", true],
    ["{a,b}/{c,d}.ts", "b/e.ts", false],
    // Character classes: ranges, negation with ! or ^.
    ["*.[jt]s", "a.ts", true],
    ["*.[jt]s", "a.cs", false],
    ["[a-c]*.md", "b.md", true],
    ["[a-c]*.md", "z.md", false],
    ["[!ab].txt", "c.txt", true],
    ["[!ab].txt", "a.txt", false],
    ["[^ab].txt", "c.txt", true],
    // * and ? stay within one segment.
    ["src/*", "src/a/b.ts", false],
    ["a?b", "a/b", false],
  ])("%s matches %s: %s", (glob, p, expected) => {
    expect(createGlobMatcher(glob)(p)).toBe(expected);
  });
});

describe("output caps", () => {
  it("capHeadTail keeps 30% head, 70% tail and notes the cut", () => {
    const text = "a".repeat(100) + "b".repeat(100);
    const capped = capHeadTail(text, 100);
    expect(capped).toBe(`${"a".repeat(30)}\n[... 100 characters cut from the middle ...]\n${"b".repeat(70)}`);
    expect(capHeadTail("short", 100)).toBe("short");
  });

  it("HeadTailBuffer holds the same head and tail in bounded memory", () => {
    const buffer = new HeadTailBuffer(5, 10);
    for (let i = 0; i < 1_000; i++) buffer.push(`${i},`);
    const text = buffer.text();
    expect(text.startsWith("0,1,2")).toBe(true);
    expect(text.endsWith("\n7,998,999,")).toBe(true);
    expect(buffer.totalChars).toBe(Array.from({ length: 1_000 }, (_, i) => `${i},`).join("").length);
    expect(buffer.cutChars).toBe(buffer.totalChars - 15);
  });
});

// Shell output and gate failure lines are stripped with Node's stripVTControlCharacters.
describe("stripVTControlCharacters", () => {
  it("removes colour and cursor sequences", () => {
    expect(stripVTControlCharacters("\u001b[31mred\u001b[39m \u001b[2K\u001b[1Adone")).toBe("red done");
  });

  it("removes hyperlinks, titles ended by ST, private modes and scrolling", () => {
    expect(stripVTControlCharacters("\u001b]8;;https://example.com/a?b=c\u0007link\u001b]8;;\u0007")).toBe("link");
    expect(stripVTControlCharacters("\u001b]0;title\u001b\\x")).toBe("x");
    expect(stripVTControlCharacters("\u001b[?25l\u001b[2Sx\u001b[3T\u001b[?25h")).toBe("x");
  });
});
