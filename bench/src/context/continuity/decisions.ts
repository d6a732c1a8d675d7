import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

// Decisions against reference lists written by hand from each session's own repository and
// transcript (bench/corpus/decisions/<id>.json), before hatloop's output was looked at. A decision
// is kept by a text when every one of its term groups has an alternative in it (any case).

const referenceSchema = z.object({
  session: z.string(),
  decisions: z.array(
    z.object({
      id: z.string(),
      decision: z.string(),
      atMessage: z.number().int().nonnegative(),
      weight: z.number().positive().default(1),
      match: z.array(z.array(z.string().min(1)).min(1)).min(1),
    }),
  ),
});

export type ReferenceDecisions = z.output<typeof referenceSchema>;

export interface DecisionScore {
  kept: number;
  total: number;
  /** Weighted by what later work depends on (weight 2) or not (1). */
  weightedKept: number;
  weightedTotal: number;
  missing: string[];
}

export function readReferenceDecisions(dir: string, session: string): ReferenceDecisions | null {
  const file = join(dir, `${session}.json`);
  return existsSync(file) ? referenceSchema.parse(JSON.parse(readFileSync(file, "utf8"))) : null;
}

export function scoreDecisions(reference: ReferenceDecisions, text: string): DecisionScore {
  const lower = text.toLowerCase();
  const score: DecisionScore = { kept: 0, total: 0, weightedKept: 0, weightedTotal: 0, missing: [] };
  for (const d of reference.decisions) {
    score.total++;
    score.weightedTotal += d.weight;
    if (d.match.every((group) => group.some((term) => lower.includes(term.toLowerCase())))) {
      score.kept++;
      score.weightedKept += d.weight;
    } else score.missing.push(d.id);
  }
  return score;
}
