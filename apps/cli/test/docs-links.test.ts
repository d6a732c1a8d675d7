import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Every relative link in the user and contributor docs points at a file that exists and, with a
// #fragment, at a heading that exists (GitHub's anchors). No network: external links are not checked.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

function markdownFiles(): string[] {
  const files = ["README.md", "CONTRIBUTING.md", "apps/cli/README.md", "db/README.md", "bench/README.md"];
  for (const dir of readdirSync(join(ROOT, "packages"))) files.push(`packages/${dir}/README.md`);
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith(".md")) files.push(path);
    }
  };
  walk("docs");
  return files.filter((f) => existsSync(join(ROOT, f)));
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes; repeats get -1, -2. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(text.replace(/`/g, "")).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe("the docs' relative links", () => {
  it("point at files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const link of links(text)) {
        const [path, fragment] = link.split("#") as [string, string | undefined];
        const target = path ? resolve(join(ROOT, dirname(file)), decodeURIComponent(path)) : join(ROOT, file);
        if (!existsSync(target)) {
          broken.push(`${file}: ${link} (no ${relative(ROOT, target)})`);
          continue;
        }
        if (fragment && target.endsWith(".md") && !anchors(readFileSync(target, "utf8")).has(fragment)) {
          broken.push(`${file}: ${link} (no heading #${fragment})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("stay in a README a user reads first: at most 12 KB, the rest in docs/", () => {
    expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(12 * 1024);
  });

  it("are found: the README links every page in docs/", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const pages = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md"));
    expect(pages.filter((page) => !readme.includes(`](docs/${page}`))).toEqual([]);
  });
});
