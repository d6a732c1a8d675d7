import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Results land in bench/results/: <bench>-latest.json (machine-readable) and <bench>-latest.md (the
// tables as printed). JSON keys are written in a fixed order, so runs diff cleanly.

const DEFAULT_RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));

/** Writes the JSON and Markdown results, and any other files a bench made (`extra`: file name -> content). */
export function writeResults(
  dir: string | null,
  name: string,
  json: unknown,
  markdown: string,
  extra: Readonly<Record<string, string>> = {},
): { json: string; markdown: string } {
  const out = dir ?? DEFAULT_RESULTS_DIR;
  mkdirSync(out, { recursive: true });
  const files = { json: join(out, `${name}-latest.json`), markdown: join(out, `${name}-latest.md`) };
  writeFileSync(files.json, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(files.markdown, markdown.endsWith("\n") ? markdown : `${markdown}\n`);
  for (const [file, content] of Object.entries(extra)) writeFileSync(join(out, file), content);
  return files;
}
