import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hatsFrom, promptComponentsFrom, type Hat, type PromptComponents } from "@hatloop/core";

// Reads the hat and prompt-component files that core parses (core itself reads no file system).

/** The hats in `dirs` (their *.md files); a later directory's hat replaces an earlier one of the same name. */
export function loadHats(dirs: string[]): Map<string, Hat> {
  const paths = dirs
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith(".md"))
        .sort()
        .map((f) => join(dir, f)),
    );
  return hatsFrom(
    paths.map((path) => ({ path, text: readFileSync(path, "utf8") })),
    dirs,
  );
}

/** Reads prompts/components/*.md once per session. */
export function loadPromptComponents(dir: string): PromptComponents {
  return promptComponentsFrom((file) => readFileSync(join(dir, file), "utf8"));
}
