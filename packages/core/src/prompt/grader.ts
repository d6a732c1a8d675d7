import { z } from "zod";
import type { ToolSpec } from "../ports/model.js";
import { toInputSchema } from "../ports/define-tool.js";
import type { GateReport } from "../ports/tools.js";
import type { Verdict } from "../shapes.js";

// What the grader is asked and how its answer is read. The grader is a fresh context: its system
// prompt is prompts/grader.md (a repository overrides it with .hatloop/grader.md), and its one user
// message holds the task, the criteria numbered, the gates' results and the diff of the worktree
// against the session's base. It answers through one tool whose input is a verdict per criterion.

export const VERDICTS_TOOL = "record_verdicts";

const answerSchema = z.object({
  verdicts: z
    .array(
      z.object({
        criterion: z.number().int().min(1).describe("The criterion's number, as listed."),
        met: z.boolean().describe("True only when the diff and the gates show the criterion is met."),
        reason: z.string().min(1).describe("Why, citing what in the diff or the gates shows it; for an unmet one, what is missing."),
      }),
    )
    .describe("One verdict for every criterion, each once."),
});

/** Built when a grading asks for it, not when every command loads this module (a JSON Schema from zod). */
export function verdictsTool(): ToolSpec {
  return {
    name: VERDICTS_TOOL,
    description: "Record your verdict on every acceptance criterion. Call it once, with one verdict per criterion.",
    inputSchema: toInputSchema(answerSchema),
  };
}

export interface GradingInput {
  task: string;
  criteria: readonly string[];
  gates: GateReport;
  diff: string;
}

export function graderMessage(input: GradingInput): string {
  const criteria = input.criteria.map((c, i) => `${i + 1}. ${c}`).join("\n");
  const gates = input.gates.checks.length
    ? input.gates.checks
        .map(
          (c) =>
            `- ${c.name} (\`${c.command}\`): ${c.passed ? "passed" : c.acceptable ? "failed as before the task (pre-existing)" : "failed"}`,
        )
        .join("\n")
    : "- no gate commands are configured or detected";
  return [
    `<task>\n${input.task.trim()}\n</task>`,
    `<criteria>\n${criteria}\n</criteria>`,
    `<gates>\n${gates}\n</gates>`,
    `<diff>\n${input.diff.trim() || "(no changes against the base commit)"}\n</diff>`,
    `Judge each of the ${input.criteria.length} criteria and call ${VERDICTS_TOOL} once.`,
  ].join("\n\n");
}

/** The verdicts of the grader's tool call, one per criterion in order, or why the answer is unusable. */
export function verdictsOf(input: unknown, criteria: readonly string[]): { verdicts: Verdict[] } | { problem: string } {
  const parsed = answerSchema.safeParse(input);
  if (!parsed.success) return { problem: `its verdicts do not match the schema: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  const byNumber = new Map(parsed.data.verdicts.map((v) => [v.criterion, v]));
  const missing = criteria.map((_, i) => i + 1).filter((n) => !byNumber.has(n));
  if (missing.length) return { problem: `no verdict for criterion ${missing.join(", ")}` };
  return {
    verdicts: criteria.map((criterion, i) => ({ criterion, met: byNumber.get(i + 1)!.met, reason: byNumber.get(i + 1)!.reason.trim() })),
  };
}
