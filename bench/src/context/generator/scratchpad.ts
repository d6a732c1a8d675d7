import type { Scenario } from "./scenarios.js";

// The SCRATCHPAD the simulated agent writes every few iterations, as the hat prompts ask: its
// understanding, the plan with checkboxes, its two latest decisions and the last action. Like a real
// agent it does not restate every constraint; the last one before the end names the failing test.

export interface ScratchpadInput {
  scenario: Scenario;
  done: ReadonlySet<number>;
  decisionsMade: readonly string[];
  final: boolean;
  lastAction: string;
}

export function scratchpadSignal(input: ScratchpadInput): string {
  const { scenario, done, decisionsMade, final, lastAction } = input;
  const plan = scenario.checklist.map((item, k) => `- [${done.has(k) ? "x" : " "}] ${item}`);
  const decisions = decisionsMade.slice(-2).map((d) => `- ${d.replace(/^Decision:\s*/, "")}`);
  const f = scenario.failingTest;
  const blockers = final ? ["## Blockers", `- "${f.name}" in ${f.file} still fails`] : [];
  return [
    "SCRATCHPAD:## Current Understanding",
    `- ${scenario.goal}`,
    "## Current Plan",
    ...plan,
    ...(decisions.length ? ["## Key Decisions", ...decisions] : []),
    ...blockers,
    "## Last Action",
    lastAction,
  ].join("\n");
}
