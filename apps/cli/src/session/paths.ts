import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Files shipped with hatloop: the prompts package (hats, prompt components) and the demo.

const promptsDir = dirname(fileURLToPath(import.meta.resolve("@hatloop/prompts/package.json")));
export const bundledHatsDir = join(promptsDir, "hats");
export const componentsDir = join(promptsDir, "components");
export const bundledGraderPrompt = join(promptsDir, "grader.md");
export const demoDir = fileURLToPath(new URL("../../demo", import.meta.url));

/** Where a repository overrides the grader's prompt. */
export function repoGraderPrompt(repoRoot: string): string {
  return join(repoRoot, ".hatloop", "grader.md");
}

/** Where a repository adds or overrides hats. */
export function repoHatsDir(repoRoot: string): string {
  return join(repoRoot, ".hatloop", "hats");
}
