import { acceptanceLines, renderHandoffMarkdown, type Handoff } from "@hatloop/context";
import type { EventData } from "@hatloop/core";
import { shortId } from "../format.js";

// A pull request's description, from the session's own record: the task, what changed, the
// decisions, the quality gates' last verdict, the grader's verdicts on the acceptance criteria, then the whole handoff folded away for reviewers who
// want the rest. GitHub refuses bodies over 65,536 characters.

const MAX_BODY_CHARS = 60_000;

export interface PullRequestFacts {
  sessionId: string;
  task: string;
  handoff: Handoff | null;
  /** The gates' verdict that let the session complete; null when none ran in this run. */
  gates: EventData<"gate.result"> | null;
}

export function pullRequestBody(facts: PullRequestFacts): string {
  const h = facts.handoff;
  const head = [
    "## Task",
    "",
    facts.task.trim(),
    "",
    "## What changed",
    "",
    ...changedLines(h),
    "",
    "## Decisions",
    "",
    ...list([...(h?.key_decisions ?? []), ...(h?.decisions.map((d) => d.what) ?? [])]),
    "",
    "## Quality gates",
    "",
    ...gateLines(facts.gates),
    // The grader's verdicts, when the task had acceptance criteria.
    ...(h?.acceptance ? ["", "## Acceptance criteria", "", ...acceptanceLines(h.acceptance)] : []),
  ].join("\n");
  const foot = `\n\n_Opened by hatloop for session ${shortId(facts.sessionId)} (\`hatloop handoff ${shortId(facts.sessionId)}\`)._\n`;
  const details = h ? `\n\n<details><summary>Full handoff</summary>\n\n${renderHandoffMarkdown(h)}\n</details>` : "";
  if (head.length + details.length + foot.length <= MAX_BODY_CHARS) return head + details + foot;
  const room = MAX_BODY_CHARS - foot.length - 40;
  return head.length <= room ? head + foot : `${head.slice(0, room)}\n\n_(cut at ${room} characters)_${foot}`;
}

function changedLines(h: Handoff | null): string[] {
  if (!h) return ["_no handoff was recorded_"];
  const d = h.diffstat;
  const stats = new Map(d?.files.map((f) => [f.path, f]));
  const file = (path: string, what: string) => {
    const f = stats.get(path);
    return `- \`${path}\` (${what}${f ? `, +${f.insertions} -${f.deletions}` : ""})`;
  };
  const files = [
    ...h.created_files.map((p) => file(p, "new")),
    ...h.modified_files.map((p) => file(p, "changed")),
    ...h.deleted_files.map((p) => file(p, "deleted")),
  ];
  const stat = d ? [`${d.files_changed} files changed, +${d.insertions} -${d.deletions}`, ""] : [];
  const done = h.completed_items.map((item) => `- [x] ${oneLine(item)}`);
  return [...stat, ...(files.length ? files : ["_no file changes recorded_"]), ...(done.length ? ["", ...done] : [])];
}

function gateLines(gates: EventData<"gate.result"> | null): string[] {
  if (!gates) return ["_no gate ran in the final run_"];
  if (!gates.checks.length) return ["_no gate commands configured or detected_"];
  const verdict = (c: EventData<"gate.result">["checks"][number]) =>
    c.passed ? "passed" : c.acceptable ? "failed as before the session (pre-existing)" : `failed (exit ${c.exitCode ?? "timeout"})`;
  return [
    "| Gate | Command | Result |",
    "| --- | --- | --- |",
    ...gates.checks.map((c) => `| ${c.name} | \`${c.command.replace(/[|`]/g, " ")}\` | ${verdict(c)} |`),
  ];
}

function list(items: string[]): string[] {
  return items.length ? items.map((i) => `- ${oneLine(i)}`) : ["_none recorded_"];
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
