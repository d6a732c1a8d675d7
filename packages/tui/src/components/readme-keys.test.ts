import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KEYS } from "./keys.js";

// The README's key table is the first a user reads of the TUI: every key it names must be one the
// view's key map (the help overlay's list) binds, and the keys a run needs most must be in it.

const README = new URL("../../../../README.md", import.meta.url);

/** The rows of the README's table headed `| key | does |`, as [keys cell, does cell]. */
function readmeKeyRows(): Array<[string, string]> {
  const lines = readFileSync(README, "utf8").split("\n");
  const start = lines.findIndex((line) => /^\|\s*key\s*\|\s*does\s*\|$/.test(line.trim()));
  if (start < 0) return [];
  const rows: Array<[string, string]> = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [keys = "", does = ""] = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    rows.push([keys, does]);
  }
  return rows;
}

/** `p` · `Ctrl-C` twice → ["p", "Ctrl-C"]: the backticked keys of a cell, each split at spaces. */
const keysOf = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].flatMap(([, keys]) => keys!.split(" "));

const bound = new Set(KEYS.flatMap((k) => k.keys.split(" ")));

describe("the README's key table", () => {
  const rows = readmeKeyRows();

  it("is there, and every key it names is one the view binds", () => {
    expect(rows.length).toBeGreaterThan(4);
    const unknown = rows.flatMap(([cell]) => keysOf(cell)).filter((key) => !bound.has(key));
    expect(unknown).toEqual([]);
  });

  it("names the keys a run needs most", () => {
    const named = new Set(rows.flatMap(([cell]) => keysOf(cell)));
    for (const key of ["p", "s", ":", "a", "q", "Ctrl-C", "?", "Enter", "/", "f", "$"]) expect(named).toContain(key);
  });
});
