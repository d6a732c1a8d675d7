import type { Scenario } from "./scenarios.js";
import type { Schedule } from "./schedule.js";
import type { PlantedFact } from "./types.js";

// The ground truth: which facts the session plants, where, and how important they are. Message
// indices follow the session layout: 0 is the task; iteration i is assistant 2i-1 and user 2i.

const assistantOf = (i: number): number => 2 * i - 1;
const userOf = (i: number): number => 2 * i;

/** The assertion without its label and the matcher note: what a summary could quote. */
function errorCore(error: string): string {
  return error.replace(/^AssertionError:\s*/, "").replace(/\s*\/\/.*$/, "");
}

export function plantedFacts(s: Scenario, at: Schedule): PlantedFact[] {
  return [
    { id: "goal", category: "goal", priority: "P0", description: "the goal", needles: s.goalNeedles, messageIndex: 0 },
    {
      id: "constraint-task",
      category: "constraint",
      priority: "P0",
      description: "constraint in the task",
      needles: s.taskConstraintNeedles,
      messageIndex: 0,
    },
    {
      id: "constraint-steer",
      category: "constraint",
      priority: "P0",
      description: "constraint the user added while the loop ran",
      needles: s.steerConstraintNeedles,
      messageIndex: userOf(at.steer),
    },
    ...s.decisions.map((d, k): PlantedFact => ({
      id: `decision-${k + 1}`,
      category: "decision",
      priority: "P1",
      description: `decision ${k + 1} with its rationale`,
      needles: d.needles,
      messageIndex: assistantOf(at.decisions[k]!),
    })),
    ...s.superseded.map((v, k): PlantedFact => ({
      id: `superseded-${v.id}`,
      category: "superseded",
      priority: "P1",
      description: `value later changed (${v.oldNeedle} -> ${v.newNeedle})`,
      needles: [v.newNeedle],
      staleNeedles: [v.oldNeedle],
      messageIndex: assistantOf(at.supersededNew[k]!),
    })),
    {
      id: "last-failing-test",
      category: "failing-test",
      priority: "P0",
      description: "the last failing test and its error",
      needles: [s.failingTest.name, errorCore(s.failingTest.error)],
      messageIndex: userOf(at.failingTest),
    },
    {
      id: "next-step",
      category: "next-step",
      priority: "P0",
      description: "the next step",
      needles: [s.nextStep.needle],
      messageIndex: assistantOf(at.nextStep),
    },
    ...s.incidentals.map((inc, k): PlantedFact => ({
      id: `incidental-${inc.id}`,
      category: "incidental",
      priority: "P2",
      description: `incidental value in tool output (${inc.needle})`,
      needles: [inc.needle],
      messageIndex: userOf(at.incidentals[k]!),
    })),
  ];
}
