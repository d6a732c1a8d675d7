import type { GateCheck, GateReport } from "@hatloop/core";

// The text task_complete returns. The prefixes QUALITY_PASSED / QUALITY_BLOCKED are a contract
// with the loop's health tracking; each failing check gets its own section of about 2k chars.

const SECTION_CHARS = 2_000;
const MAX_LISTED_FAILURES = 20;

export function formatGateReport(report: GateReport): string {
  if (report.checks.length === 0) {
    return "QUALITY_PASSED: no test, lint or build command is configured or detected, so there was nothing to check.";
  }
  const summary = report.checks.map(describeBriefly).join(", ");
  if (report.passed) return `QUALITY_PASSED: ${summary}`;
  const blocking = report.checks.filter((c) => !c.acceptable);
  const head =
    `QUALITY_BLOCKED: ${blocking.length} of ${report.checks.length} checks failed (${summary}). ` +
    "Fix the failures below, then call task_complete again.";
  return [head, ...blocking.map(section)].join("\n\n");
}

function describeBriefly(check: GateCheck): string {
  const seconds = `${(check.durationMs / 1000).toFixed(1)}s`;
  if (check.passed) return `${check.name} passed (${seconds})`;
  if (check.acceptable) return `${check.name} failed before this session too, with no new failures (accepted)`;
  return `${check.name} FAILED`;
}

function section(check: GateCheck): string {
  const status = check.timedOut ? "timed out; the process tree was killed" : `exit code ${check.exitCode ?? "none"}`;
  const lines = [`## ${check.name.toUpperCase()} FAILED: \`${check.command}\` (${status})`];
  if (check.newFailures.length > 0) {
    lines.push("New failures:");
    for (const f of check.newFailures.slice(0, MAX_LISTED_FAILURES)) lines.push(`- ${f}`);
    if (check.newFailures.length > MAX_LISTED_FAILURES) lines.push(`- ... and ${check.newFailures.length - MAX_LISTED_FAILURES} more`);
  }
  const used = lines.join("\n").length;
  const room = Math.max(400, SECTION_CHARS - used);
  const output = check.output.trimEnd();
  const tail = output.length > room ? `[...]\n${output.slice(output.length - room)}` : output;
  lines.push("Output (tail):", tail.length > 0 ? tail : "(no output)");
  return lines.join("\n");
}
