import type { EventData, LoopEvent } from "../events.js";
import { commandName } from "./command-name.js";
import { formatCost, formatTokens, shortId } from "./format.js";

// One line of text per event (null for events not worth a line), shared by the plain printer, the
// TUI's activity pane and `hatloop logs`, so every view words things the same way.

export function describeEvent(event: LoopEvent): string | null {
  switch (event.type) {
    case "session.start": {
      const s = event.data;
      const by = s.runner === undefined ? "" : `, run by ${s.runner}`;
      return `hatloop: ${s.resumed ? "resuming" : "starting"} session ${shortId(event.sessionId)} as ${s.hat} on ${s.branch} (${s.worktree}), model ${s.model}${by}`;
    }
    case "iteration.start":
      return `-- iteration ${event.iteration} (${event.data.hat}) --`;
    case "model.retry":
      return `   model: retry ${event.data.attempt} in ${(event.data.waitMs / 1000).toFixed(1)}s (${event.data.status ?? "connection"}: ${event.data.reason})`;
    case "model.notice":
      return `   model notice: ${event.data.message}`;
    case "model.usage_limit":
      return `   ! ${event.data.message}`;
    case "model.refusal": {
      const r = event.data;
      const why = [r.category, r.explanation].filter(Boolean).join(": ") || "no reason given";
      const next = {
        retry: "the refused answer is archived; retrying without it",
        withhold: "retrying without the refused answer and the turn before it",
        stop: "stopping",
      }[r.action];
      return `   ! model refused to continue (${why}); ${next}`;
    }
    case "model.truncated": {
      const t = event.data;
      const what = t.tools.join(", ");
      return t.retryWith !== null
        ? `   ! output limit (${formatTokens(t.maxTokens)} tokens) cut the call to ${what}; asking again with ${formatTokens(t.retryWith)}`
        : `   ! output limit (${formatTokens(t.maxTokens)} tokens, the model's maximum) cut the call to ${what}; the model is told to work in smaller steps`;
    }
    case "context.overflow": {
      const o = event.data;
      const size =
        o.promptTokens !== null
          ? `${formatTokens(o.promptTokens)} tokens > ${formatTokens(o.maxTokens ?? 0)} maximum`
          : "over the size limit";
      return `   ! request too large for the model (${size}); compacting and retrying the iteration (attempt ${o.attempt})`;
    }
    case "model.response": {
      const u = event.data.usage;
      const cache =
        u.cacheReadTokens || u.cacheWriteTokens
          ? `, cache ${formatTokens(u.cacheReadTokens)} read/${formatTokens(u.cacheWriteTokens)} written`
          : "";
      return `   model: ${event.data.stopReason}, ${formatTokens(u.inputTokens)} in/${formatTokens(u.outputTokens)} out${cache}, ${formatCost(event.data.costUsd)}`;
    }
    case "tool.call":
      return `   > ${event.data.name} ${event.data.summary}`;
    case "tool.result":
      return `   < ${event.data.name} ${event.data.isError ? "ERROR" : "ok"} (${formatTokens(event.data.chars)} chars, ${event.data.durationMs} ms)${event.data.isError ? `: ${event.data.preview}` : ""}`;
    case "signal.scratchpad":
      return `   scratchpad updated (${event.data.chars} chars)`;
    case "signal.checklist":
      return `   checklist ${event.data.id} ${event.data.status}${event.data.reason ? `: ${event.data.reason}` : ""}${event.data.known ? "" : " (no such item)"}`;
    case "checklist.set":
      return `   checklist: ${event.data.items.map((i) => `${i.id}. ${i.description}`).join("; ")}`;
    case "signal.memory":
      return `   memory [${event.data.memoryType}] ${event.data.text}`;
    case "signal.malformed":
      return `   ! signal ${event.data.signal} not applied: ${event.data.reason}`;
    case "hat.change":
      return `   hat: ${event.data.from} -> ${event.data.to} (${event.data.topic})`;
    case "route.rejected":
      return `   ! event ${event.data.topic} not routed: ${event.data.reason}`;
    case "gate.result":
      return `   gates: ${event.data.checks.map((c) => `${c.name} ${c.passed ? "passed" : c.acceptable ? "failed before too" : `FAILED (exit ${c.exitCode ?? "timeout"})`}`).join(", ") || "none configured"} => ${event.data.passed ? "passed" : "blocked"}`;
    case "completion.refused":
      return `   ! completion refused: ${event.data.reason}`;
    case "grader.start":
      return `   grading ${event.data.criteria} acceptance criteria (round ${event.data.round}, ${event.data.model})`;
    case "grader.verdict": {
      const d = event.data;
      const met = d.verdicts.filter((v) => v.met).length;
      const then = { complete: "satisfied", revise: `revision ${d.revisions} of ${d.maxRevisions}`, stop: "revisions used up: stopping" }[
        d.action
      ];
      const unmet = d.verdicts.filter((v) => !v.met).map((v) => `${v.criterion} (${v.reason})`);
      return `   grader: ${met}/${d.verdicts.length} criteria met => ${then}${unmet.length ? `; unmet: ${unmet.join("; ")}` : ""}`;
    }
    case "health.warning":
      return `   ! loop health (${event.data.kind}, ${event.data.level}): ${event.data.message}`;
    case "budget.exceeded":
      return `   budget reached: ${event.data.budget} ${event.data.value}/${event.data.limit}`;
    case "context.gauge":
      return `   context ${event.data.percent}% (${formatTokens(event.data.tokens)}/${formatTokens(event.data.window)} tokens, ${event.data.zone})`;
    case "context.compacted":
      return `   context compacted (${event.data.strategy}, level ${event.data.level}): ${formatTokens(event.data.tokensBefore)} -> ${formatTokens(event.data.tokensAfter)} tokens, ${event.data.removed} removed${event.data.summaryFallback ? ` (mechanical summary: ${event.data.summaryFallback})` : ""}`;
    case "context.recalled":
      return `   recalled ${event.data.hits} stored messages for "${event.data.query}" (${formatTokens(event.data.tokens)} tokens)`;
    case "checkpoint.saved":
      return `   checkpoint #${event.data.seq} (${event.data.reason})${event.data.commit ? ` at ${event.data.commit.slice(0, 10)}` : ""}`;
    case "steer":
      return `   steering: ${event.data.text}`;
    case "session.status":
      if (event.data.status === "waiting")
        return `hatloop: the agent asks: ${event.data.reason ?? ""}\n   answer with: ${commandName()} answer ${shortId(event.sessionId)} "..."`;
      return event.data.status === "running"
        ? null
        : `hatloop: session ${event.data.status}${event.data.reason ? ` (${event.data.reason})` : ""}`;
    case "question.answered":
      return `   answered${event.data.answeredBy ? ` (${event.data.answeredBy})` : ""}: ${event.data.answer}`;
    case "session.end": {
      // An iteration that did not finish (a failed model call) is named as the one shown, not as "after N - 1".
      const when =
        event.iteration > event.data.iterations ? `in iteration ${event.iteration}` : `after ${event.data.iterations} iterations`;
      return `hatloop: ${event.data.status}: ${event.data.reason} ${when}, ${formatCost(event.data.costUsd)}${event.data.status === "completed" ? "" : `\n   continue with: ${commandName()} resume ${shortId(event.sessionId)}${raiseFlag(event.data.reason)}`}`;
    }
    case "session.lease-lost":
      return `hatloop: stopped: ${event.data.message}`;
    case "error":
      return `   ! ${event.data.fatal ? "error" : "warning"}: ${event.data.message}`;
    case "database.outage":
      return `   ! ${event.data.message}`;
    case "hook.failed":
      return `   ! hook ${event.data.hook} (${event.data.target}) failed after ${event.data.attempts} attempt${event.data.attempts === 1 ? "" : "s"}: ${event.data.error}`;
    case "pr.result":
      return describePullRequest(event.data);
    default:
      return null;
  }
}

function describePullRequest(pr: EventData<"pr.result">): string {
  const kind = pr.draft ? "draft pull request" : "pull request";
  if (pr.opened) return `hatloop: ${kind} opened: ${pr.url ?? "(no address printed by gh)"}`;
  const pushed = pr.pushed ? `; ${pr.branch} is pushed to ${pr.remote}` : "";
  const open = pr.compareUrl ? `\n   open it at: ${pr.compareUrl}` : "";
  return `hatloop: no ${kind}: ${pr.reason ?? "unknown reason"}${pushed}${open}`;
}

/** A run paused at a budget resumes only with that budget raised (resume refuses otherwise): the hint says how. */
function raiseFlag(reason: string): string {
  const budget = /^budget:(\w+)$/.exec(reason)?.[1];
  const flags: Record<string, string> = {
    iterations: "--max-iterations 10",
    tokens: "--max-tokens 500000",
    cost: "--max-cost 1",
    runtime: "--max-runtime 1h",
  };
  return budget && flags[budget] ? ` ${flags[budget]}` : "";
}
