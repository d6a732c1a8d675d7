import { parseScratchpad } from "../handoff/scratchpad.js";
import { splitScratchpad, textOf, toolResultText, type Message } from "../messages.js";
import { artifactTrail, toolCalls, type ToolCallRecord } from "./artifact-trail.js";
import { failureLine, firstMeaningfulLine } from "./failure-line.js";
import { clip, describeToolCall, isRecord, oneLine } from "./tool-input.js";

// The summary that always exists: deterministic, no model call, bounded. It is the fallback when
// the LLM summary fails, and the source of the artifact trail either way.

export interface MechanicalSummaryOptions {
  /** The real decision extractor (src/memory); default: a few keyword patterns. */
  extractDecision?: (text: string) => string | null;
  /** Bound for everything except the list of changed files, which is always complete. Default 4,000. */
  maxChars?: number;
}

interface CommandRun {
  command: string;
  /** Exit code when the result states it. */
  exitCode: number | null;
  /** The tool reported an error. */
  failed: boolean;
}

export interface MechanicalSummary {
  /** The rendered summary (starts with "Mechanical summary of"). */
  text: string;
  messageCount: number;
  toolCallCount: number;
  /** Files written, edited, created or deleted, deduplicated, in order of first change. Complete. */
  filesChanged: string[];
  commands: CommandRun[];
  /** Lines with QUALITY_PASSED / QUALITY_BLOCKED. */
  gates: string[];
  errors: string[];
  decisions: string[];
  /** "name key=value" with how often it was called, in order of first call. */
  calls: Array<{ call: string; count: number }>;
}

const COMMAND_TOOL = /command|bash|shell|exec|terminal/i;
const EXIT_CODE = /\bexit(?:ed)?(?: with)?(?: code| status)?\s*[:=]?\s*(-?\d+)\b/i;
const GATE = /QUALITY_(PASSED|BLOCKED)/;
const ERROR_LINE = /\b(error|fail(ed|ure)?|exception|cannot|not found|denied|ENOENT)\b/i;
const DECISION = /\b(decided|decide to|decision:|chose|choosing|going with|opted|settled on|will use|instead of|rather than)\b/i;

export function summarizeMechanically(messages: readonly Message[], opts: MechanicalSummaryOptions = {}): MechanicalSummary {
  const calls = toolCalls(messages);
  const filesChanged = artifactTrail(messages);
  const commands = calls.flatMap(commandRun);
  const errors = unique(calls.filter((c) => c.result?.is_error).map(errorLine));
  const gates = unique(messages.flatMap(gateLines));
  const decisions = unique(messages.filter((m) => m.role === "assistant").flatMap((m) => decisionsOf(textOf(m), opts.extractDecision)));
  const counted = countCalls(calls);
  const summary = {
    messageCount: messages.length,
    toolCallCount: calls.length,
    filesChanged,
    commands,
    gates,
    errors,
    decisions,
    calls: counted,
  };
  return { ...summary, text: render(summary, opts.maxChars ?? 4_000) };
}

function commandRun(call: ToolCallRecord): CommandRun[] {
  if (!COMMAND_TOOL.test(call.use.name) || !isRecord(call.use.input)) return [];
  const command = call.use.input["command"] ?? call.use.input["cmd"];
  if (typeof command !== "string") return [];
  const code = call.result ? EXIT_CODE.exec(toolResultText(call.result))?.[1] : undefined;
  return [
    { command: clip(oneLine(command), 160), exitCode: code === undefined ? null : Number(code), failed: call.result?.is_error === true },
  ];
}

/** The call and what went wrong: the failure (with its error), else a line naming an error, else the first line. */
function errorLine(call: ToolCallRecord): string {
  const text = call.result ? toolResultText(call.result) : "";
  const telling = text.split("\n").find((line) => ERROR_LINE.test(line));
  const line = failureLine(text) ?? (telling !== undefined ? oneLine(telling) : firstMeaningfulLine(text));
  return `${describeToolCall(call.use.name, call.use.input, 60)}: ${clip(line ?? "error", 200)}`;
}

function gateLines(message: Message): string[] {
  const texts =
    typeof message.content === "string"
      ? [message.content]
      : message.content.flatMap((b) => (b.type === "text" ? [b.text] : b.type === "tool_result" ? [toolResultText(b)] : []));
  return texts
    .flatMap((t) => t.split("\n"))
    .filter((line) => GATE.test(line))
    .map((line) => clip(oneLine(line), 200));
}

/** Decisions in the prose, and those the agent listed under its scratchpad's Key Decisions (not its other sections). */
function decisionsOf(text: string, extract: MechanicalSummaryOptions["extractDecision"]): string[] {
  const { scratchpad, rest } = splitScratchpad(text);
  const curated = scratchpad === null ? [] : parseScratchpad(scratchpad).decisions.map((d) => clip(oneLine(d), 200));
  return [...decisionsIn(rest, extract), ...curated];
}

function decisionsIn(text: string, extract: MechanicalSummaryOptions["extractDecision"]): string[] {
  const sentences = text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map(oneLine)
    .filter((s) => s !== "");
  const pick = extract ?? ((s: string) => (DECISION.test(s) ? s : null));
  return sentences.flatMap((s) => {
    const decision = pick(s);
    return decision ? [clip(oneLine(decision), 200)] : [];
  });
}

function outcome(run: CommandRun): string {
  return run.exitCode !== null ? `exit ${run.exitCode}` : run.failed ? "failed" : "ok";
}

/**
 * One line per distinct command, in order of first run: a test command run 19 times is one line
 * with its tally and last outcome, not 19 lines crowding the decisions out of the budget.
 */
function commandLines(commands: readonly CommandRun[]): string[] {
  const runs = new Map<string, CommandRun[]>();
  for (const c of commands) runs.set(c.command, [...(runs.get(c.command) ?? []), c]);
  return [...runs].map(([command, all]) => {
    const last = all.at(-1)!;
    if (all.length === 1) return `\`${command}\` → ${outcome(last)}`;
    const failed = all.filter((r) => r.failed || (r.exitCode ?? 0) !== 0).length;
    return `\`${command}\` ×${all.length} (${failed} failed) → last ${outcome(last)}`;
  });
}

function countCalls(calls: readonly ToolCallRecord[]): Array<{ call: string; count: number }> {
  const counts = new Map<string, number>();
  for (const c of calls) {
    const key = describeToolCall(c.use.name, c.use.input, 60);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([call, count]) => ({ call, count }));
}

type SummaryFields = Omit<MechanicalSummary, "text">;

function render(s: SummaryFields, maxChars: number): string {
  const head = `Mechanical summary of ${s.messageCount} messages (${s.toolCallCount} tool calls).`;
  const files = s.filesChanged.length > 0 ? `Files changed:\n${s.filesChanged.map((f) => `- ${f}`).join("\n")}` : "Files changed: none";
  let budget = maxChars - head.length - files.length;
  const sections: Array<[string, string[]]> = [
    ["Quality gates", s.gates],
    ["Commands", commandLines(s.commands)],
    ["Errors", s.errors],
    ["Decisions", s.decisions],
    ["Tool calls", s.calls.map((c) => (c.count > 1 ? `${c.call} ×${c.count}` : c.call))],
  ];
  const parts = [head, files];
  for (const [title, items] of sections) {
    if (items.length === 0) continue;
    const section = boundedList(title, items, budget);
    if (section === null) break;
    parts.push(section);
    budget -= section.length + 2;
  }
  return parts.join("\n\n");
}

/** "Title:\n- a\n- b\n- … 3 more", cut to fit budget; null when not even one line fits. */
function boundedList(title: string, items: readonly string[], budget: number): string | null {
  const lines = [`${title}:`];
  let used = lines[0]!.length;
  for (let i = 0; i < items.length; i++) {
    const line = `- ${items[i]}`;
    const left = items.length - i - 1;
    // Keep room for a "… N more" line, so stopping at the next item still fits the budget.
    const reserve = left > 0 ? `\n- … ${left} more`.length : 0;
    if (used + 1 + line.length + reserve > budget) {
      const more = `- … ${items.length - i} more`;
      if (used + 1 + more.length <= budget) lines.push(more);
      break;
    }
    lines.push(line);
    used += 1 + line.length;
  }
  return lines.length === 1 ? null : lines.join("\n");
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
