import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { hatSchema, type Hat } from "./hat.js";

// Hats come from the bundled prompts/hats/ directory; a repository's .hatloop/hats/ adds hats or
// replaces bundled ones by name. A broken hat file is a one-line error naming the file.

export class HatError extends Error {}

export function loadHats(dirs: string[]): Map<string, Hat> {
  const hats = new Map<string, Hat>();
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".md")).sort()) {
      const hat = parseHatFile(join(dir, file));
      hats.set(hat.name, hat);
    }
  }
  if (hats.size === 0) throw new HatError(`no hats found in ${dirs.join(", ")}`);
  return hats;
}

export function parseHatFile(path: string): Hat {
  return parseHat(readFileSync(path, "utf8"), path);
}

export function parseHat(text: string, source: string): Hat {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new HatError(`invalid hat file ${source}: expected YAML frontmatter between --- lines`);
  let front: unknown;
  try {
    front = parseYaml(match[1]!);
  } catch (error) {
    throw new HatError(`invalid hat file ${source}: ${(error as Error).message.split("\n")[0]}`);
  }
  const parsed = hatSchema.safeParse({ ...(front as object), instructions: match[2]!.trim() });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HatError(`invalid hat file ${source}: ${issue.path.join(".") || "frontmatter"}: ${issue.message}`);
  }
  return parsed.data;
}
