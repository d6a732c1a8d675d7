import type { LoopEvent } from "@hatloop/core";
import type { EntryDetail } from "./types.js";

// What an activity entry shows when opened: the events carry previews and summaries (tool results
// are cut, tool inputs summarised, gate output left out), so the entry keeps what the event did carry
// and a reference to the stored messages, where the CLI finds the whole thing.

export function detailOf(event: LoopEvent): EntryDetail | undefined {
  switch (event.type) {
    case "tool.call":
      return {
        title: `tool call · ${event.data.name} · iteration ${event.iteration}`,
        body: `${event.data.name} ${event.data.summary}`,
        ref: { kind: "tool", toolId: event.data.id, iteration: event.iteration },
      };
    case "tool.result": {
      const r = event.data;
      return {
        title: `tool result · ${r.name}${r.isError ? " · ERROR" : ""} · ${r.chars} chars · iteration ${event.iteration}`,
        body: r.preview,
        ref: { kind: "tool", toolId: r.id, iteration: event.iteration },
      };
    }
    case "gate.result":
      return {
        title: `quality gates · ${event.data.passed ? "passed" : "blocked"} · iteration ${event.iteration}`,
        body: event.data.checks
          .map((c) =>
            [
              `${c.name}: ${c.passed ? "passed" : c.acceptable ? "failed before too" : "FAILED"} (exit ${c.timedOut ? "timeout" : (c.exitCode ?? "none")}, ${c.durationMs} ms)`,
              `$ ${c.command}`,
              ...c.newFailures.map((f) => `  ${f}`),
            ].join("\n"),
          )
          .join("\n\n"),
        ref: { kind: "gate", iteration: event.iteration },
      };
    case "grader.verdict": {
      const d = event.data;
      const then = { complete: "all met", revise: `revision ${d.revisions} of ${d.maxRevisions}`, stop: "revisions used up" }[d.action];
      return {
        title: `grader · round ${d.round} · ${then} · iteration ${event.iteration}`,
        body: [
          ...d.verdicts.map((v) => `${v.met ? "✓" : "✗"} ${v.criterion}\n  ${v.reason}`),
          `(${d.model}, $${d.costUsd.toFixed(4)})`,
        ].join("\n\n"),
      };
    }
    case "error":
      return { title: `${event.data.fatal ? "error" : "warning"} · iteration ${event.iteration}`, body: event.data.message };
    default:
      return undefined;
  }
}

/** A settled model response: all the text streamed (the stored messages have it when the stream buffer cut its start). */
export function textDetail(iteration: number, text: string, cut: boolean): EntryDetail {
  return {
    title: `model text · iteration ${iteration}`,
    body: text,
    ...(cut ? { ref: { kind: "text" as const, iteration } } : {}),
  };
}
