import type { Acceptance, Handoff } from "./types.js";

// Markdown for people (`hatloop handoff`, the TUI, a PR description). Every field appears; empty
// lists say "none" so a reader can tell "nothing" from "missing".

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

function bullets(items: readonly string[], mark = "-"): string[] {
  return items.length === 0 ? ["_none_"] : items.map((item) => `${mark} ${oneLine(item)}`);
}

function code(text: string): string {
  const ticks = "`".repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return ticks.length > 1 ? `${ticks} ${text} ${ticks}` : `\`${text}\``;
}

/** A fenced block whose fence is longer than any backtick run inside the text. */
function fenced(text: string): string[] {
  const fence = "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${fence}text`, text, fence];
}

function section(title: string, lines: readonly string[]): string[] {
  return ["", `## ${title}`, "", ...lines];
}

function usageLines(h: Handoff): string[] {
  const u = h.usage;
  if (u === null) return ["_none_"];
  const limit = (v: number | null) => (v === null ? "none" : String(v));
  return [
    `- Iteration: ${u.iteration}`,
    `- Tokens: ${u.input_tokens} in, ${u.output_tokens} out, ${u.cache_read_tokens} cache read, ${u.cache_write_tokens} cache write`,
    `- Cost: $${u.cost_usd.toFixed(4)} · runtime ${Math.round(u.runtime_ms / 1000)}s`,
    `- Context: ${u.context_tokens}/${u.context_window} tokens`,
    `- Budgets: iterations ${limit(u.budgets.max_iterations)}, tokens ${limit(u.budgets.max_tokens)}, cost ${limit(u.budgets.max_cost_usd)}, runtime ${u.budgets.max_runtime_ms === null ? "none" : durationText(u.budgets.max_runtime_ms)}`,
  ];
}

/** The grader's latest verdicts, one line each; shared with the pull request's description. */
export function acceptanceLines(a: Acceptance): string[] {
  const verdict = a.satisfied ? "all met" : "not all met";
  const head = `${verdict}; graded ${a.rounds} time${a.rounds === 1 ? "" : "s"}, ${a.revisions} revision${a.revisions === 1 ? "" : "s"}`;
  return [head, "", ...a.verdicts.map((v) => `- ${v.met ? "[x]" : "[ ]"} ${oneLine(v.criterion)}: ${oneLine(v.reason)}`)];
}

function diffstatLines(h: Handoff): string[] {
  const d = h.diffstat;
  if (d === null) return ["_none_"];
  const files = d.files.map((f) => `| ${code(f.path)} | +${f.insertions} | -${f.deletions} |`);
  const table = files.length ? ["", "| File | Added | Removed |", "| --- | --- | --- |", ...files] : [];
  return [`${d.files_changed} files changed, +${d.insertions} -${d.deletions}`, ...table];
}

export function renderHandoffMarkdown(h: Handoff): string {
  const total = h.completed_items.length + h.remaining_items.length;
  const w = h.working;
  const tool = w.last_tool_call === null ? "none" : `${code(w.last_tool_call.name)} ${oneLine(w.last_tool_call.params_summary)}`;
  const lines = [
    `# Handoff: ${oneLine(h.task_title)}`,
    "",
    `- Generated: ${h.generated_at}`,
    `- Hat: ${h.current_hat}`,
    `- Branch: ${code(h.branch)} at ${code(h.head_commit)}`,
    ...(h.instructions.length ? section("What the user said after the task", bullets(h.instructions)) : []),
    ...section(`Progress (${h.completed_items.length}/${total})`, [
      "### Completed",
      "",
      ...bullets(h.completed_items, "- [x]"),
      "",
      "### Remaining",
      "",
      ...bullets(h.remaining_items, "- [ ]"),
      "",
      "### Blocking issues",
      "",
      ...bullets(h.blocking_issues),
    ]),
    ...section("Working state", [
      `- Topic: ${oneLine(w.topic)}`,
      `- Status: ${w.status}${w.interrupted ? " (interrupted)" : ""}`,
      `- Next action: ${oneLine(w.next_action)}`,
      `- Last tool call: ${tool}`,
      `- Last failure: ${w.last_failure === null ? "none" : oneLine(w.last_failure)}`,
    ]),
    ...section("Key decisions", bullets(h.key_decisions)),
    ...section(
      "Decisions",
      h.decisions.length ? h.decisions.map((d) => `- ${d.id}${d.when ? ` (${d.when})` : ""}: ${oneLine(d.what)}`) : ["_none_"],
    ),
    ...section("Open items", bullets(h.open_items)),
    ...section("Learnings", bullets(h.learnings)),
    ...section("Thread", [
      oneLine(h.thread.summary) || "_none_",
      "",
      ...(h.thread.key_exchanges.length
        ? h.thread.key_exchanges.map((e) => `- **${e.role}**: ${oneLine(e.gist)}`)
        : ["_no key exchanges_"]),
    ]),
    ...section("Files", [
      "### Modified",
      "",
      ...bullets(h.modified_files.map(code)),
      "",
      "### Created",
      "",
      ...bullets(h.created_files.map(code)),
      "",
      "### Deleted",
      "",
      ...bullets(h.deleted_files.map(code)),
    ]),
    ...section("Diffstat", diffstatLines(h)),
    ...section("Commits", h.commits.length ? h.commits.map((c) => `- ${code(c.sha.slice(0, 12))} ${oneLine(c.subject)}`) : ["_none_"]),
    ...section("Usage", usageLines(h)),
    ...section(
      "Failure",
      h.failure === null
        ? ["_none_"]
        : [
            `- Failed at: ${h.failure.failed_at ?? "unknown"}`,
            `- Recovery hint: ${h.failure.recovery_hint === null ? "none" : oneLine(h.failure.recovery_hint)}`,
            "",
            ...fenced(h.failure.last_error),
          ],
    ),
    ...(h.open_question
      ? section("Waiting for an answer", [
          oneLine(h.open_question.question),
          "",
          h.open_question.answer === null ? "_not answered yet (hatloop answer)_" : `Answered: ${oneLine(h.open_question.answer)}`,
        ])
      : []),
    ...(h.acceptance ? section("Acceptance criteria", acceptanceLines(h.acceptance)) : []),
    ...section("Continuation prompt", fenced(h.continuation_prompt)),
  ];
  return `${lines.join("\n")}\n`;
}

/** 14400000 -> "4h", 5400000 -> "1h30m", 90000 -> "1m30s". */
function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return [h ? `${h}h` : "", m ? `${m}m` : "", sec || (!h && !m) ? `${sec}s` : ""].join("");
}
