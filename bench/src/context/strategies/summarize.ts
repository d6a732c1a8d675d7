import { blocksOf, estimateTokens, realUserText, toolResultText, type Message } from "@hatloop/context";
import { maskOldResults } from "./observation-masking.js";
import { filesNamed, standInSummary, type SummaryFlavor } from "./stand-in-summary.js";
import { tailHandoff } from "./tail-handoff.js";
import type { Strategy, SummaryCall } from "./types.js";

// The summarising peers: when the next request would reach the trigger, the conversation is
// replaced by one summary (a deterministic stand-in, stand-in-summary.ts, with the sections the
// peer's prompt asks for) and the session goes on from there; the next crossing summarises again.
// The summary is written by the session's own model reading the conversation as it stands (its
// prefix cached), and what follows the summary is each peer's own:
// - Claude Code re-attaches the files it read most recently (up to `files` of them, each cut to
//   `tokensPerFile`), as they were last read;
// - Goose re-appends the person's last request;
// - Codex re-appends the person's newest messages up to 20,000 tokens.
// With `maskTurns`, tool results older than that many turns are masked every call as well (the
// Complexity Trap paper's hybrid of observation masking and summaries).

export type AfterSummary =
  { kind: "files"; files: number; tokensPerFile: number } | { kind: "last-request" } | { kind: "recent-requests"; tokens: number };

export interface SummarizeOptions {
  name: string;
  summary: string;
  /** Summarise when the request would reach this many tokens. */
  trigger: (window: number) => number;
  flavor: SummaryFlavor;
  after?: AfterSummary;
  maskTurns?: number;
}

export function summarizing(options: SummarizeOptions): Strategy {
  return {
    name: options.name,
    summary: options.summary,
    start(ctx) {
      const history: Message[] = [];
      let context: Message[] = [];
      let summaryMessage: Message | undefined;
      let summary: string | undefined;
      let previousTokens = 0;
      let summaries = 0;
      const calls: SummaryCall[] = [];
      const threshold = options.trigger(ctx.window);
      const size = (m: readonly Message[]) => estimateTokens(m, { system: [ctx.system] });
      const view = (): Message[] => (options.maskTurns ? maskOldResults(context, options.maskTurns) : context);
      return {
        async next(appended) {
          history.push(...appended);
          context.push(...appended);
          const tokens = size(view());
          if (tokens >= threshold) {
            summary = standInSummary(history, options.flavor);
            // The session's own model summarises the conversation as sent so far: its prefix is cached.
            calls.push({
              model: "main",
              inputTokens: tokens,
              cachedTokens: Math.min(previousTokens, tokens),
              outputTokens: estimateTokens([{ role: "assistant", content: summary }]),
            });
            summaryMessage = {
              role: "user",
              content: [summary, ...afterSummary(history, options.after)].map((text) => ({ type: "text" as const, text })),
            };
            context = [summaryMessage];
            summaries++;
          }
          const request = view();
          previousTokens = size(request);
          return request;
        },
        async handoff(appended) {
          history.push(...appended);
          context.push(...appended);
          return tailHandoff(
            history,
            view().filter((m) => m !== summaryMessage),
            summary,
          );
        },
        stats: () => ({ summaries }),
        summaryCalls: () => calls,
      };
    },
  };
}

/** What the peer puts after its summary. */
export function afterSummary(history: readonly Message[], after: AfterSummary | undefined): string[] {
  if (!after) return [];
  if (after.kind === "last-request") {
    const last = history.map(realUserText).filter(Boolean).at(-1);
    return last ? [`The last request from the user:\n${last}`] : [];
  }
  if (after.kind === "recent-requests") {
    const kept: string[] = [];
    let tokens = 0;
    for (const text of history.map(realUserText).filter(Boolean).reverse()) {
      tokens += Math.ceil(text.length / 4);
      if (tokens > after.tokens) break;
      kept.unshift(text);
    }
    return kept.length ? [`Recent messages from the user:\n${kept.join("\n\n")}`] : [];
  }
  const files = filesNamed(history).reverse();
  const out: string[] = [];
  for (const path of files) {
    if (out.length >= after.files) break;
    const content = lastReadOf(history, path);
    if (content !== null) out.push(`Contents of ${path} (read before the summary):\n${content.slice(0, after.tokensPerFile * 4)}`);
  }
  return out;
}

const WRITES = /write|edit|replace|patch|create|insert|delete|move/i;

/** The newest successful result of a call that read `path` (what the agent last saw of it). */
function lastReadOf(history: readonly Message[], path: string): string | null {
  for (let i = history.length - 1; i > 0; i--) {
    for (const b of blocksOf(history[i]!)) {
      if (b.type !== "tool_result" || b.is_error) continue;
      const call = blocksOf(history[i - 1]!).find((u) => u.type === "tool_use" && u.id === b.tool_use_id);
      if (call?.type === "tool_use" && !WRITES.test(call.name) && JSON.stringify(call.input).includes(JSON.stringify(path)))
        return toolResultText(b);
    }
  }
  return null;
}
