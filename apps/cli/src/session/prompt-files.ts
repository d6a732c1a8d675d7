import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadHats as hatsIn, promptComponentsFrom, type Hat, type PromptComponents } from "@hatloop/core";

// The hat and prompt-component files, read from disk for core (which reads no file system).

const files = { exists: existsSync, list: (dir: string) => readdirSync(dir), read: (path: string) => readFileSync(path, "utf8") };

export const loadHats = (dirs: string[]): Map<string, Hat> => hatsIn(dirs, files);

/** The grader's system prompt: the first of `paths` that exists (a repository's override, then the bundled one). */
export const loadGraderPrompt = (paths: string[]): string => files.read(paths.find((p) => files.exists(p)) ?? paths.at(-1)!).trim();

export const loadPromptComponents = (dir: string): PromptComponents => promptComponentsFrom((file) => files.read(join(dir, file)));
