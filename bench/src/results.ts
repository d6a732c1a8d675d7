import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Results land in bench/out/ (ignored by git, so a checkout stays clean after a bench), or with
// --publish in bench/results/, the tracked figures the docs quote: <bench>-latest.json
// (machine-readable) and <bench>-latest.md (the tables as printed). JSON keys are written in a fixed
// order, so runs diff cleanly.

const SCRATCH_DIR = fileURLToPath(new URL("../out/", import.meta.url));
const PUBLISHED_DIR = fileURLToPath(new URL("../results/", import.meta.url));

/** Where a run writes: --out DIR, else bench/results/ with --publish, else bench/out/. */
export function resultsDir(args: { outDir: string | null; publish: boolean }): string {
  return args.outDir ?? (args.publish ? PUBLISHED_DIR : SCRATCH_DIR);
}

/** Writes the JSON and Markdown results, and any other files a bench made (`extra`: file name -> content). */
export function writeResults(
  out: string,
  name: string,
  json: unknown,
  markdown: string,
  extra: Readonly<Record<string, string>> = {},
): { json: string; markdown: string } {
  mkdirSync(out, { recursive: true });
  const files = { json: join(out, `${name}-latest.json`), markdown: join(out, `${name}-latest.md`) };
  writeFileSync(files.json, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(files.markdown, markdown.endsWith("\n") ? markdown : `${markdown}\n`);
  for (const [file, content] of Object.entries(extra)) writeFileSync(join(out, file), content);
  return files;
}
