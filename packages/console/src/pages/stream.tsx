import { describeEvent, formatTokens } from "@hatloop/core";
import type { StoredLoopEvent } from "../backend.js";

// A session's activity stream, one list item per event worth showing: iteration headers with their
// time, the model's text as it streamed, tool calls, and results that open whole (fetched when
// opened), gates check by check, the grader's verdicts criterion by criterion; every other event as the line the terminal prints for it.

/** Events the stream does not show: the charts and the page's head show them instead. */
const QUIET = new Set(["context.gauge", "usage.total", "iteration.end", "model.request"]);

const clock = (ts: number) => new Date(ts).toLocaleTimeString("en-GB", { hour12: false });

export function StreamItem(props: { sessionId: string; stored: StoredLoopEvent }) {
  const { event } = props.stored;
  if (QUIET.has(event.type)) return null;
  switch (event.type) {
    case "iteration.start":
      return (
        <li class="iteration" id={`i-${event.iteration}`}>
          Iteration {event.iteration} · {event.data.hat} · {clock(event.ts)}
        </li>
      );
    case "model.text":
      return <li class="text">{event.data.text}</li>;
    case "tool.result": {
      const r = event.data;
      const head = `< ${r.name} ${r.isError ? "ERROR" : "ok"} (${formatTokens(r.chars)} chars, ${r.durationMs} ms)`;
      return (
        <li class={r.isError ? "bad" : undefined}>
          <details
            hx-get={`/fragments/sessions/${props.sessionId}/result/${event.iteration}/${encodeURIComponent(r.id)}`}
            hx-trigger="toggle once"
            hx-target="find .result"
            // Its own swap: the stream's (beforeend, for new events) is inherited otherwise, and the
            // result would go after "loading…" instead of in its place.
            hx-swap="innerHTML"
          >
            <summary>
              {head} <span class="muted">{r.preview}</span>
            </summary>
            <div class="result">loading…</div>
          </details>
        </li>
      );
    }
    case "gate.result":
      return (
        <li class="gates">
          gates{" "}
          {event.data.checks.map((c) => (
            <span class={c.passed || c.acceptable ? "pass" : "fail"}>
              {c.passed ? "✓" : c.acceptable ? "≈" : "✗"} {c.name}{" "}
            </span>
          ))}
          → <b>{event.data.passed ? "passed" : "blocked"}</b>
        </li>
      );
    case "grader.verdict": {
      const d = event.data;
      const then = { complete: "all met", revise: `revision ${d.revisions} of ${d.maxRevisions}`, stop: "revisions used up" }[d.action];
      return (
        <li class={`grader${d.action === "stop" ? " bad" : ""}`}>
          <details open={!d.satisfied}>
            <summary>
              grader{" "}
              <span class={d.satisfied ? "pass" : "fail"}>
                {d.verdicts.filter((v) => v.met).length}/{d.verdicts.length} criteria met
              </span>{" "}
              → <b>{then}</b> <span class="muted">({d.model})</span>
            </summary>
            <ul class="verdicts">
              {d.verdicts.map((v) => (
                <li class={v.met ? "pass" : "fail"}>
                  {v.met ? "✓" : "✗"} {v.criterion} <span class="muted">— {v.reason}</span>
                </li>
              ))}
            </ul>
          </details>
        </li>
      );
    }
    default: {
      const line = describeEvent(event)?.trim();
      if (!line) return null;
      const bad = line.startsWith("!") || event.type === "error" || (event.type === "session.end" && event.data.status === "failed");
      return <li class={bad ? "bad" : undefined}>{line}</li>;
    }
  }
}

/** A tool call's whole result, as the page opens it. */
export function ResultBody(props: { text: string | null }) {
  return props.text === null ? <p class="muted">The result is not stored (the call was cut off).</p> : <pre>{props.text}</pre>;
}

/** A commit's diff, its lines coloured as added, removed and hunk headers. */
export function DiffBody(props: { diff: string | null }) {
  if (props.diff === null)
    return <p class="muted">This commit's diff cannot be read here (the worktree is on another machine, or gone).</p>;
  if (!props.diff.trim()) return <p class="muted">No changes.</p>;
  const kind = (line: string) =>
    line.startsWith("+++") || line.startsWith("---")
      ? "hunk"
      : line.startsWith("+")
        ? "add"
        : line.startsWith("-")
          ? "del"
          : line.startsWith("@@") || line.startsWith("diff ")
            ? "hunk"
            : undefined;
  return (
    <pre class="diff">
      {props.diff.split("\n").map((line) => (
        <span class={kind(line)}>{line || " "}</span>
      ))}
    </pre>
  );
}
