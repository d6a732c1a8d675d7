import type { Rng } from "../../util/rng.js";
import { codeBlock, codeLine, fillerPath, identifier } from "./vocabulary.js";

// Tool outputs with realistic shapes and sizes: log-normal line counts (a long tail of big reads
// and test logs), capped like the product's tools.maxResultChars (30,000 characters, tail kept).

const MAX_RESULT_CHARS = 30_000;

function lineCount(rng: Rng, median: number, sigma: number, max: number): number {
  return Math.max(1, Math.min(max, Math.round(rng.logNormal(median, sigma))));
}

function cap(text: string): string {
  return text.length <= MAX_RESULT_CHARS
    ? text
    : `[... ${text.length - MAX_RESULT_CHARS} characters truncated]\n${text.slice(-MAX_RESULT_CHARS)}`;
}

/** A numbered file listing; `plant` is inserted at a random line. */
export function readFileOutput(rng: Rng, plant?: string): string {
  const lines = codeBlock(rng, lineCount(rng, 70, 0.9, 900));
  if (plant !== undefined) lines.splice(rng.int(0, lines.length), 0, plant);
  return cap(lines.map((line, i) => `${String(i + 1).padStart(5)}  ${line}`).join("\n"));
}

export function searchOutput(rng: Rng): string {
  const hits = lineCount(rng, 14, 0.9, 250);
  const lines = Array.from(
    { length: hits },
    () => `${fillerPath(rng, rng.chance(0.2))}:${rng.int(1, 400)}:${codeLine(rng, rng.int(0, 2))}`,
  );
  return cap(lines.join("\n"));
}

export function listOutput(rng: Rng, dir: string): string {
  const count = lineCount(rng, 25, 0.6, 200);
  return cap(Array.from({ length: count }, () => `${dir.replace(/\/$/, "")}/${fillerPath(rng).split("/").slice(1).join("/")}`).join("\n"));
}

export interface TestFailure {
  file: string;
  name: string;
  error: string;
}

/** Vitest-style output: passing files, then each failure with its assertion and a stack. */
export function testOutput(rng: Rng, failures: readonly TestFailure[]): string {
  const files = lineCount(rng, 18, 0.6, 120);
  const lines = [" RUN  v3.2.4 /work/repo", ""];
  for (let i = 0; i < files; i++) lines.push(` ✓ ${fillerPath(rng, true)} (${rng.int(1, 40)} tests) ${rng.int(2, 900)}ms`);
  for (const f of failures) {
    lines.push("", ` FAIL  ${f.file} > ${f.name}`, f.error, "");
    for (let k = 0; k < rng.int(4, 12); k++)
      lines.push(`    at ${identifier(rng)} (${fillerPath(rng)}:${rng.int(1, 300)}:${rng.int(1, 40)})`);
  }
  const failed = failures.length;
  lines.push(
    "",
    ` Test Files  ${failed ? `${failed} failed | ` : ""}${files} passed (${files + failed})`,
    `      Tests  ${failed ? `${failed} failed | ` : ""}${files * 7} passed`,
    `   Duration  ${rng.int(1, 30)}.${rng.int(10, 99)}s`,
  );
  lines.push(failed ? "exit code 1" : "exit code 0");
  return cap(lines.join("\n"));
}

/** A failure that is not a planted fact (its text can never match a needle). */
export function fillerFailure(rng: Rng): TestFailure {
  return {
    file: fillerPath(rng, true),
    name: `${identifier(rng)} handles an empty ${identifier(rng).toLowerCase()}`,
    error: rng.pick([
      "AssertionError: expected undefined to be defined",
      "TypeError: Cannot read properties of undefined (reading 'length')",
      "AssertionError: expected [] to have a length of 3 but got +0",
    ]),
  };
}

export function commandOutput(rng: Rng, plant?: string): string {
  const lines = Array.from(
    { length: lineCount(rng, 10, 0.8, 150) },
    () =>
      `${fillerPath(rng)}:${rng.int(1, 300)}:${rng.int(1, 60)}  ${rng.pick(["warning", "info"])}  ${identifier(rng)} is ${rng.pick(["unused", "deprecated", "shadowed"])}`,
  );
  if (plant !== undefined) lines.splice(rng.int(0, lines.length), 0, plant);
  return cap([...lines, "exit code 0"].join("\n"));
}

export function diffOutput(rng: Rng, paths: readonly string[]): string {
  const out: string[] = [];
  for (const path of paths) {
    out.push(
      `diff --git a/${path} b/${path}`,
      `--- a/${path}`,
      `+++ b/${path}`,
      `@@ -${rng.int(1, 200)},${rng.int(3, 12)} +${rng.int(1, 200)},${rng.int(3, 12)} @@`,
    );
    for (const line of codeBlock(rng, rng.int(4, 30))) out.push(`${rng.pick([" ", " ", "+", "-"])}${line}`);
  }
  return cap(out.join("\n"));
}
