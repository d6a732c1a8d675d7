import { shortId } from "@hatloop/core";
import type { SessionDetail, SessionSeries, StoredLoopEvent } from "../backend.js";
import { Charts } from "./charts.js";
import { ago, costOf, repoName, runtimeOf } from "./format.js";
import { Layout } from "./layout.js";
import { StreamItem } from "./stream.js";

// One session: its head (status, budgets, the agent's question, the actions), the live activity
// stream, and beside it the checklist, scratchpad, charts, handoff and the commit of each checkpoint.
// The head and charts are swapped in place by the live stream; new events are appended to the list.

export function SessionPage(props: {
  detail: SessionDetail;
  events: StoredLoopEvent[];
  series: SessionSeries;
  lastId: number;
  csrf: string;
  now: number;
}) {
  const { detail } = props;
  const { session } = detail.row;
  return (
    <Layout title={`${shortId(session.id)} ${session.title}`} csrf={props.csrf} active="session">
      <div sse-connect={`/live/sessions/${session.id}?after=${props.lastId}`}>
        <div hidden sse-swap="head" hx-swap="innerHTML"></div>
        <SessionHead detail={detail} now={props.now} />
        <div class="cols">
          <section class="panel">
            <h2>Activity</h2>
            <ol class="stream" id="stream" sse-swap="events" hx-swap="beforeend">
              {props.events.map((stored) => (
                <StreamItem sessionId={session.id} stored={stored} />
              ))}
            </ol>
          </section>
          <div>
            <Checklist detail={detail} />
            <section class="panel">
              <h2>Scratchpad</h2>
              <Scratchpad text={session.scratchpad} />
            </section>
            <Charts series={props.series} maxCostUsd={session.budgets.maxCostUsd} />
            <section class="panel">
              <h2>Commits</h2>
              {detail.checkpoints.length === 0 ? <p class="muted">No checkpoint yet.</p> : null}
              {detail.checkpoints.map((c) =>
                c.gitCommit ? (
                  <details
                    hx-get={`/fragments/sessions/${session.id}/diff/${c.gitCommit}`}
                    hx-trigger="toggle once"
                    hx-target="find .diff-body"
                  >
                    <summary>
                      #{c.seq} {c.reason}, iteration {c.iteration} <code>{c.gitCommit.slice(0, 10)}</code>
                    </summary>
                    <div class="diff-body">loading…</div>
                  </details>
                ) : (
                  <p class="muted">
                    #{c.seq} {c.reason}, iteration {c.iteration} (no commit)
                  </p>
                ),
              )}
            </section>
            <section class="panel">
              <h2>Handoff</h2>
              <pre>{detail.handoff ?? "No handoff yet: the first checkpoint writes one."}</pre>
            </section>
          </div>
        </div>
      </div>
    </Layout>
  );
}

export function SessionHead(props: { detail: SessionDetail; now: number; oob?: boolean }) {
  const { row } = props.detail;
  const { session } = row;
  const question = session.question && session.question.answer === null ? session.question : null;
  const b = session.budgets;
  const id = session.id;
  return (
    <section id="head" hx-swap-oob={props.oob ? "true" : undefined}>
      <h1>
        {shortId(id)} · {session.title || session.task} <span class={`badge s-${row.status}`}>{row.status}</span>
      </h1>
      <div class="facts">
        <span>hat {session.hat}</span>
        <span>iteration {b.maxIterations === null ? session.iteration : `${session.iteration} / ${b.maxIterations}`}</span>
        <span>cost {costOf(session.costUsd, b.maxCostUsd)}</span>
        <span>runtime {runtimeOf(session.runtimeMs)}</span>
        <span>model {session.model}</span>
        <span>branch {session.branch}</span>
        {row.worker ? <span>worker {row.worker}</span> : null}
        {row.repo ? <span title={row.repo}>repo {repoName(row.repo)}</span> : null}
        {row.lastEvent ? <span class="muted">last event {ago(row.lastEvent.at, props.now)}</span> : null}
      </div>
      {session.stopReason && row.status !== "running" ? <p class="muted">{session.stopReason}</p> : null}
      {question ? (
        <form class="panel" hx-post="/actions/answer" hx-target="#toast" hx-swap="innerHTML">
          <p class="question">The agent asks: {question.text}</p>
          <input type="hidden" name="session" value={id} />
          <input name="answer" required placeholder="your answer" aria-label="answer" size={50} /> <button class="primary">Answer</button>
        </form>
      ) : null}
      <div class="actions">
        {STOPPABLE.has(row.status) ? <Action kind="stop" id={id} label="Stop" danger /> : null}
        {RESUMABLE.has(row.status) ? <Action kind="resume" id={id} label="Resume" /> : null}
        <Action kind="rerun" id={id} label="Re-run as a new session" />
        {row.status === "dead-lettered" ? <Action kind="retry" id={id} label="Retry" /> : null}
        {row.status === "completed" ? null : <RaiseBudget id={id} />}
      </div>
    </section>
  );
}

/** Which buttons a status shows: an action that could only be refused is not offered. */
const STOPPABLE = new Set(["running", "waiting", "queued", "retrying", "pending"]);
const RESUMABLE = new Set(["paused", "interrupted", "failed", "waiting", "stopped"]);

function RaiseBudget(props: { id: string }) {
  return (
    <form hx-post="/actions/raise-budget" hx-target="#toast" hx-swap="innerHTML">
      <input type="hidden" name="session" value={props.id} />
      <input name="iterations" type="number" min="1" placeholder="+ iterations" aria-label="more iterations" class="short" />
      <input name="cost" type="number" min="0.01" step="0.01" placeholder="+ dollars" aria-label="more dollars" class="short" />
      <button>Raise budget</button>
    </form>
  );
}

function Action(props: { kind: string; id: string; label: string; danger?: boolean }) {
  return (
    <button
      class={props.danger ? "danger" : undefined}
      hx-post={`/actions/${props.kind}`}
      hx-vals={JSON.stringify({ session: props.id })}
      hx-target="#toast"
      hx-swap="innerHTML"
    >
      {props.label}
    </button>
  );
}

export function Checklist(props: { detail: SessionDetail; oob?: boolean }) {
  const items = props.detail.checklist;
  return (
    <section class="panel" id="checklist" hx-swap-oob={props.oob ? "true" : undefined}>
      <h2>Checklist</h2>
      {items.length === 0 ? <p class="muted">No items yet.</p> : null}
      <ul class="checklist">
        {items.map((i) => (
          <li class={i.status}>
            {i.id}. {i.description}
            {i.reason ? <span class="muted"> ({i.reason})</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Scratchpad(props: { text: string; oob?: boolean }) {
  return (
    <pre id="scratchpad" hx-swap-oob={props.oob ? "true" : undefined}>
      {props.text || "(empty)"}
    </pre>
  );
}
