import { expandPathTree } from "@hatloop/context";
import type { PlantedFact, Priority } from "./generator/types.js";

// Planted-fact scoring. A fact is present when every canonical string of its current value appears
// (case-insensitive) and its regex, if any, matches; a superseded value is "shown as current" when
// its old value appears without the new one. Containment is necessary, not sufficient: a model may
// still overlook a fact that is there.

type Presence = "present" | "stale" | "missing";

function presence(fact: PlantedFact, text: string): Presence {
  const lower = text.toLowerCase();
  const has = (needles: readonly string[]): boolean => needles.length > 0 && needles.every((n) => lower.includes(n.toLowerCase()));
  const current = has(fact.needles) && (fact.regex === undefined || new RegExp(fact.regex, "i").test(text));
  if (current) return "present";
  return fact.staleNeedles && has(fact.staleNeedles) ? "stale" : "missing";
}

export type Tally = Record<Priority, { present: number; total: number }>;

export interface FactScore {
  tally: Tally;
  /** Superseded facts whose old value appears without the new one. */
  stale: number;
  missing: string[];
}

export function emptyTally(): Tally {
  return { P0: { present: 0, total: 0 }, P1: { present: 0, total: 0 }, P2: { present: 0, total: 0 } };
}

export function scoreFacts(facts: readonly PlantedFact[], text: string): FactScore {
  const tally = emptyTally();
  let stale = 0;
  const missing: string[] = [];
  for (const fact of facts) {
    const p = presence(fact, text);
    tally[fact.priority].total++;
    if (p === "present") tally[fact.priority].present++;
    else missing.push(fact.id);
    if (p === "stale") stale++;
  }
  return { tally, stale, missing };
}

export function addTallies(a: Tally, b: Tally): Tally {
  const out = emptyTally();
  for (const p of ["P0", "P1", "P2"] as const) out[p] = { present: a[p].present + b[p].present, total: a[p].total + b[p].total };
  return out;
}

/** Paths found (as substrings) in the text, out of those expected. */
export function scorePaths(paths: readonly string[], text: string): { present: number; total: number; missing: string[] } {
  // A path is named verbatim, or in a directory-tree line ("src/auth/: login.ts, token.ts") as
  // hatloop's resume packet names them (expandPathTree reads those lines back).
  const inTree = new Set(expandPathTree(text.split("\n").filter((line) => line.includes("/: "))));
  const missing = paths.filter((p) => !text.includes(p) && !inTree.has(p));
  return { present: paths.length - missing.length, total: paths.length, missing };
}
