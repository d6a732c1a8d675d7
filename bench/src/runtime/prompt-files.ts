import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadHats as hatsIn, promptComponentsFrom, type Hat, type PromptComponents } from "@hatloop/core";

// The hat and prompt-component files, read from disk for core (which reads no file system).

const files = { exists: existsSync, list: (dir: string) => readdirSync(dir), read: (path: string) => readFileSync(path, "utf8") };

export const loadHats = (dirs: string[]): Map<string, Hat> => hatsIn(dirs, files);

export const loadPromptComponents = (dir: string): PromptComponents => promptComponentsFrom((file) => files.read(join(dir, file)));
