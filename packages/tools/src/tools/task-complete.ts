import { errorMessage } from "@hatloop/context";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { formatGateReport } from "../gates/format-report.js";
import { ToolError } from "../tool-error.js";

export function taskCompleteTool() {
  return defineTool({
    name: "task_complete",
    description:
      "Declare the task finished. hatloop then runs the project's quality gates (tests, lint, build) itself and " +
      "compares them with the failures that existed before the task started. Returns QUALITY_PASSED, or " +
      "QUALITY_BLOCKED with the failures to fix. Call it only when you believe the work is done.",
    input: z.object({
      summary: z.string().trim().min(1).describe("What was done and how it was verified, in a few sentences"),
    }),
    async run(input, context) {
      let report;
      try {
        report = await context.services.runGates();
      } catch (error) {
        if (context.signal.aborted) throw error;
        throw new ToolError(`the quality gates could not be run: ${errorMessage(error)}`);
      }
      return {
        isError: !report.passed,
        content: formatGateReport(report),
        meta: { completion: { passed: report.passed, report }, summary: input.summary },
      };
    },
  });
}
