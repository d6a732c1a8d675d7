import { blocksOf, textOf, toolResultText, type Message } from "@hatloop/context";
import { textTokens } from "../../util/message-text.js";
import type { AgentState } from "./agent-state.js";
import type { Handoff } from "./types.js";

// The reference Go loop's own pieces, ported as written (docs/design/reference-loop.md): summarizeMessages (the plain
// compaction's mechanical summary: tool names, "decided"/"choosing" sentences, quality gates) and
// the resume text its handoff produces (task, branch, progress, remaining items, continuation).

export function referenceSummary(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const block of blocksOf(message)) if (block.type === "tool_use") lines.push(`- Called ${block.name}`);
      const text = textOf(message);
      if (text.includes("decided") || text.includes("choosing")) lines.push(`- Decision: ${firstSentence(text)}`);
    } else {
      const text = blocksOf(message)
        .map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? toolResultText(b) : ""))
        .join("\n");
      const gate = text.split("\n").find((line) => line.includes("QUALITY_"));
      if (gate !== undefined) lines.push(`- Quality gate: ${gate.trim()}`);
    }
  }
  return lines.map((l) => `${l}\n`).join("");
}

function firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)|\n/);
  return end === -1 ? text : text.slice(0, end + 1).trim();
}

/** The reference loop's "Resuming Session" text plus the scratchpad it restores (its HandoffSummary, rendered as the reference renders it). */
export function referenceHandoff(task: string, agent: AgentState): Handoff {
  const title = task.split("\n")[0]!.trim();
  const completed = agent.checklist.filter((i) => i.status === "done").map((i) => i.description);
  const remaining = agent.checklist.filter((i) => i.status !== "done").map((i) => i.description);
  const continuation = `Continue working on: ${title}\nCurrent phase: creator\nNext step: ${remaining[0] ?? "Complete the task"}`;
  const recovery = [
    "## Resuming Session",
    "",
    `**Task**: ${title}`,
    "**Branch**: hatloop/bench",
    `**Progress**: ${completed.length}/${completed.length + remaining.length} items completed`,
    "",
    ...(remaining.length ? ["**Remaining**:", ...remaining.map((r) => `- ${r}`)] : []),
    "",
    `**Continue with**: ${continuation}`,
  ].join("\n");
  const text = agent.scratchpad ? `${recovery}\n\n${agent.scratchpad}` : recovery;
  return { text, tokens: textTokens(text), describe: "resume text + scratchpad (reference loop)" };
}
