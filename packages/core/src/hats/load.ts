import { parse as parseYaml } from "yaml";
import { errorMessage } from "@hatloop/context";
import { hatSchema, type Hat } from "./hat.js";

// Hats come from the bundled prompts/hats/ directory; a repository's .hatloop/hats/ adds hats or
// replaces bundled ones by name. A broken hat file is a one-line error naming the file. Reading the
// files is the caller's (core reads no file system).

export class HatError extends Error {}

/** A hat file's path (named in errors) and text. */
export interface HatFile {
  path: string;
  text: string;
}

/** What reading the hat files takes (node:fs for the CLI and the benchmarks); core reads no file system itself. */
export interface HatDirectories {
  exists(dir: string): boolean;
  list(dir: string): string[];
  read(path: string): string;
}

/** The hats in `dirs` (their *.md files); a later directory's hat replaces an earlier one of the same name. */
export function loadHats(dirs: readonly string[], fs: HatDirectories): Map<string, Hat> {
  const paths = dirs
    .filter((dir) => fs.exists(dir))
    .flatMap((dir) =>
      fs
        .list(dir)
        .filter((f) => f.endsWith(".md"))
        .sort()
        .map((f) => `${dir.replace(/\/+$/, "")}/${f}`),
    );
  return hatsFrom(
    paths.map((path) => ({ path, text: fs.read(path) })),
    dirs,
  );
}

/** The hats of `files` by name, in order: a later file replaces an earlier hat of the same name. */
export function hatsFrom(files: readonly HatFile[], searched: readonly string[]): Map<string, Hat> {
  const hats = new Map<string, Hat>();
  for (const file of files) {
    const hat = parseHat(file.text, file.path);
    hats.set(hat.name, hat);
  }
  if (hats.size === 0) throw new HatError(`no hats found in ${searched.join(", ")}`);
  return hats;
}

function parseHat(text: string, source: string): Hat {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new HatError(`invalid hat file ${source}: expected YAML frontmatter between --- lines`);
  let front: unknown;
  try {
    front = parseYaml(match[1]!);
  } catch (error) {
    throw new HatError(`invalid hat file ${source}: ${errorMessage(error).split("\n")[0]}`);
  }
  const parsed = hatSchema.safeParse({ ...(front as object), instructions: match[2]!.trim() });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HatError(`invalid hat file ${source}: ${issue.path.join(".") || "frontmatter"}: ${issue.message}`);
  }
  return parsed.data;
}
