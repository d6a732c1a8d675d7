import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KEYS } from "./keys.js";

// The README's key table is the first a user reads of the TUI: every key it names must be one the
// view's key map (the help overlay's list) binds, and the keys a run needs most must be in it.

const README = new URL("../../../../README.md", import.meta.url);

/** The first cell (the keys) of each row of the README's table headed `| key | does |`. */
function readmeKeyCells(): string[] {
  const lines = readFileSync(README, "utf8").split("\n");
  const start = lines.findIndex((line) => /^\|\s*key\s*\|\s*does\s*\|$/.test(line.trim()));
  if (start < 0) return [];
  const rows = lines.slice(start + 2);
  const end = rows.findIndex((line) => !line.startsWith("|"));
  return rows.slice(0, end < 0 ? undefined : end).map((line) => line.split("|")[1]!.trim());
}

/** `p` · `Ctrl-C` twice → ["p", "Ctrl-C"]: the backticked keys of a cell, each split at spaces. */
const keysOf = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].flatMap(([, keys]) => keys!.split(" "));

const bound = new Set(KEYS.flatMap((k) => k.keys.split(" ")));

describe("the README's key table", () => {
  const cells = readmeKeyCells();

  it("is there, and every key it names is one the view binds", () => {
    expect(cells.length).toBeGreaterThan(4);
    const unknown = cells.flatMap(keysOf).filter((key) => !bound.has(key));
    expect(unknown).toEqual([]);
  });

  it("names the keys a run needs most", () => {
    const named = new Set(cells.flatMap(keysOf));
    for (const key of ["p", "s", ":", "a", "q", "Ctrl-C", "?", "Enter", "/", "f", "$"]) expect(named).toContain(key);
  });
});
