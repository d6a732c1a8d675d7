import { estimateTokens, type Message } from "@hatloop/context";
import type { BenchInput, RecordedCompaction } from "../input.js";
import { standInSummary, type SummaryFlavor } from "../strategies/stand-in-summary.js";
import { afterSummary } from "../strategies/summarize.js";
import type { InputAnalysis } from "./analysis.js";

// The summary stand-in against the real thing: at each compaction an agent of the corpus really
// made, the items its later calls needed that only the summarised part held; how many of them its
// own summary kept, and how many the stand-in keeps for the same history (with the peer's prompt:
// Claude Code's for Claude Code, Goose's sections for pi and GJC, whose prompts ask for the same).
// A stand-in that kept less than the real summaries would make the summarising peers look worse
// than they are.

export interface CalibrationRow {
  input: string;
  agent: string;
  beforeMessage: number;
  /** Model calls until the agent's next compaction (or the end). */
  calls: number;
  /** Needed items that only the summarised part held. */
  items: number;
  real: { kept: number; tokens: number };
  standIn: { kept: number; tokens: number; flavor: SummaryFlavor };
  /** Claude Code only: the stand-in plus the files it re-attaches after its summary. */
  standInWithFiles: { kept: number; tokens: number } | null;
}

export function calibrateSummaries(input: BenchInput, analysis: InputAnalysis): CalibrationRow[] {
  // Codex's summary is encrypted: there is nothing to compare with.
  const recorded = (input.compactions ?? []).filter((c) => c.summary.length > 0);
  return recorded.map((c, n) => {
    const until = recorded[n + 1]?.beforeMessage ?? input.messages.length;
    const summarised = input.messages.slice(0, c.keptFrom);
    const flavor: SummaryFlavor = c.agent === "claude-code" ? "claude-code" : "goose";
    const standIn = standInSummary(summarised, flavor);
    const files =
      c.agent === "claude-code" ? afterSummary(summarised, { kind: "files", files: 5, tokensPerFile: 5_000 }).join("\n\n") : null;
    const row: CalibrationRow = {
      input: input.name,
      agent: c.agent,
      beforeMessage: c.beforeMessage,
      calls: 0,
      items: 0,
      real: { kept: 0, tokens: tokens(c.summary) },
      standIn: { kept: 0, tokens: tokens(standIn), flavor },
      standInWithFiles: files === null ? null : { kept: 0, tokens: tokens(standIn) + tokens(files) },
    };
    for (const [k, at] of analysis.calls.entries()) {
      if (at < c.beforeMessage || at >= until) continue;
      row.calls++;
      for (const item of onlySummarised(analysis, k, at, c)) {
        row.items++;
        if (c.summary.includes(item)) row.real.kept++;
        if (standIn.includes(item)) row.standIn.kept++;
        if (row.standInWithFiles && (standIn.includes(item) || files!.includes(item))) row.standInWithFiles.kept++;
      }
    }
    return row;
  });
}

/** The items call k needed whose every earlier occurrence is in what the summary replaced. */
function onlySummarised(analysis: InputAnalysis, k: number, at: number, c: RecordedCompaction): string[] {
  return analysis.needs[k]!.items.filter((item) => analysis.text.occurrences(item).every((i) => i < c.keptFrom || i >= at));
}

function tokens(text: string): number {
  return estimateTokens([{ role: "user", content: text } satisfies Message]);
}
