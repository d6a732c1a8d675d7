import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Hat } from "../hats/hat.js";
import { loadHats as hatsIn } from "../hats/load.js";
import { promptComponentsFrom, type PromptComponents } from "../prompt/components.js";

// The hat and prompt-component files, read from disk for core (which reads no file system).

const files = { exists: existsSync, list: (dir: string) => readdirSync(dir), read: (path: string) => readFileSync(path, "utf8") };

export const loadHats = (dirs: string[]): Map<string, Hat> => hatsIn(dirs, files);

export const loadPromptComponents = (dir: string): PromptComponents => promptComponentsFrom((file) => files.read(join(dir, file)));
