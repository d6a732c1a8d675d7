import { shortId } from "@hatloop/core";
import type { SessionQuery, SessionRow, Tally, Totals } from "../backend.js";
import { ago, costOf, queryString, repoName, runtimeOf } from "./format.js";
import { Layout } from "./layout.js";

// The sessions page: every session, local and queued, filtered and searched; its rows and totals are
// kept current by the live stream (/live/fleet), which swaps rows in, out and in place by their ids.

const STATUSES = ["running", "waiting", "paused", "pending", "queued", "dead-lettered", "interrupted", "completed", "failed", "stopped"];

function queryParams(query: SessionQuery): Record<string, string | undefined> {
  return { status: query.status?.join(","), worker: query.worker, repo: query.repo, text: query.text };
}

export function FleetPage(props: {
  rows: SessionRow[];
  totals: Totals;
  query: SessionQuery;
  workers: string[];
  csrf: string;
  now: number;
  /** The snapshot of these rows its live stream starts from (row-snapshots.ts). */
  view?: string;
}) {
  const { query } = props;
  return (
    <Layout title="Sessions" csrf={props.csrf} active="fleet">
      <h1>Sessions</h1>
      <TotalsOf totals={props.totals} />
      <form class="filters" hx-get="/" hx-target="#sessions" hx-swap="outerHTML" hx-trigger="change, input delay:300ms" hx-push-url="true">
        <select name="status" aria-label="status">
          <option value="">any status</option>
          {STATUSES.map((s) => (
            <option value={s} selected={query.status?.length === 1 && query.status[0] === s}>
              {s}
            </option>
          ))}
        </select>
        <select name="worker" aria-label="worker">
          <option value="">any worker</option>
          {props.workers.map((w) => (
            <option value={w} selected={query.worker === w}>
              {w}
            </option>
          ))}
        </select>
        <input name="repo" placeholder="repository" value={query.repo ?? ""} aria-label="repository" />
        <input name="text" type="search" placeholder="search task or id" value={query.text ?? ""} aria-label="search" />
      </form>
      <SessionTable rows={props.rows} query={query} now={props.now} view={props.view} />
    </Layout>
  );
}

/**
 * The table with its live stream, for this filter: replaced whole when the filter changes. `view`
 * names the snapshot of these rows the stream starts from (it sends only what changed since).
 */
export function SessionTable(props: { rows: SessionRow[]; query: SessionQuery; now: number; view?: string }) {
  return (
    <div id="sessions" sse-connect={`/live/fleet${queryString({ ...queryParams(props.query), view: props.view })}`}>
      <div hidden sse-swap="rows" hx-swap="innerHTML"></div>
      <table>
        <thead>
          <tr>
            <th>session</th>
            <th>status</th>
            <th class="wide">worker</th>
            <th class="wide">repository</th>
            <th class="wide">hat</th>
            <th class="num">iteration</th>
            <th class="num">cost</th>
            <th class="num wide">runtime</th>
            <th class="wide">last event</th>
          </tr>
        </thead>
        <tbody id="rows">
          {props.rows.map((row) => (
            <RowOf row={row} now={props.now} />
          ))}
        </tbody>
      </table>
      {props.rows.length === 0 ? <p class="empty">No sessions match.</p> : null}
    </div>
  );
}

/** One session's row; `oob`: a live update, swapped in place of the row with its id. */
export function RowOf(props: { row: SessionRow; now: number; oob?: boolean }) {
  const { session, status } = props.row;
  const oob = props.oob ? "true" : undefined;
  const question = session.question && session.question.answer === null ? session.question.text : null;
  const maxIterations = session.budgets.maxIterations;
  return (
    <tr id={`s-${session.id}`} hx-swap-oob={oob}>
      <td class="task">
        <a href={`/sessions/${session.id}`}>{shortId(session.id)}</a> {session.title || session.task}
        {question ? <div class="question">asks: {question}</div> : null}
      </td>
      <td>
        <span class={`badge s-${status}`}>{status}</span>
      </td>
      <td class="wide">{props.row.worker ?? "–"}</td>
      <td class="wide" title={props.row.repo ?? ""}>
        {repoName(props.row.repo)}
      </td>
      <td class="wide">{session.hat}</td>
      <td class="num">{maxIterations === null ? session.iteration : `${session.iteration} / ${maxIterations}`}</td>
      <td class="num">{costOf(session.costUsd, session.budgets.maxCostUsd)}</td>
      <td class="num wide">{runtimeOf(session.runtimeMs)}</td>
      <td class="wide muted">{props.row.lastEvent ? `${ago(props.row.lastEvent.at, props.now)}: ${props.row.lastEvent.text}` : "–"}</td>
    </tr>
  );
}

/** Everything RowOf shows of a row but the time: two rows that show the same have the same fingerprint. */
export function rowFingerprint(row: SessionRow): string {
  const { session } = row;
  const question = session.question && session.question.answer === null ? session.question.text : null;
  return JSON.stringify([
    row.status,
    row.worker,
    row.repo,
    session.title,
    session.task,
    question,
    session.hat,
    session.iteration,
    session.budgets.maxIterations,
    session.costUsd,
    session.budgets.maxCostUsd,
    session.runtimeMs,
    row.lastEvent?.at.getTime(),
    row.lastEvent?.text,
  ]);
}

/** A row new to the page, put first (a row's parent, so that its children, the row, are what is inserted). */
export function RowInsert(props: { row: SessionRow; now: number }) {
  return (
    <tbody hx-swap-oob="afterbegin:#rows">
      <RowOf row={props.row} now={props.now} />
    </tbody>
  );
}

/** A row to take out of the page (it no longer matches the filter). */
export function RowGone(props: { id: string }) {
  return <tr id={`s-${props.id}`} hx-swap-oob="delete"></tr>;
}

export function TotalsOf(props: { totals: Totals; oob?: boolean }) {
  const { totals } = props;
  const tally = (t: Tally) => (
    <>
      <b>${t.costUsd.toFixed(2)}</b> <span class="muted">({t.sessions})</span>
    </>
  );
  return (
    <section class="totals" id="totals" hx-swap-oob={props.oob ? "true" : undefined}>
      <span title="what the sessions created today cost (the server's local time)">started today {tally(totals.today)}</span>
      <span title="created since Monday">this week {tally(totals.week)}</span>
      <span>all {tally(totals.all)}</span>
      {Object.entries(totals.byStatus)
        .filter(([, n]) => n > 0)
        .map(([status, n]) => (
          <span>
            <span class={`s-${status}`}>{status}</span> <b>{n}</b>
          </span>
        ))}
    </section>
  );
}
