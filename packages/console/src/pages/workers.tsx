import { shortId } from "@hatloop/core";
import type { QueueSummary, WorkerRow } from "../backend.js";
import { ago, repoName } from "./format.js";
import { Layout } from "./layout.js";

// The fleet's machines: every worker, alive or lost, what it runs and what it took over; then the
// queue, the sessions that could not start (dead-lettered, with a retry) and the schedules.

type Fleet = { workers: WorkerRow[]; queue: QueueSummary } | null;

export function WorkersPage(props: { fleet: Fleet; csrf: string; now: number }) {
  return (
    <Layout title="Workers" csrf={props.csrf} active="workers">
      <h1>Workers and queue</h1>
      <div sse-connect="/live/workers">
        <div hidden sse-swap="fleet" hx-swap="innerHTML"></div>
        <FleetBody fleet={props.fleet} now={props.now} />
      </div>
    </Layout>
  );
}

export function FleetBody(props: { fleet: Fleet; now: number; oob?: boolean }) {
  const { fleet } = props;
  return (
    <div id="fleet" hx-swap-oob={props.oob ? "true" : undefined}>
      {fleet === null ? (
        <p class="empty">
          No fleet here: this console reads a database without a queue (the embedded one). Run workers against Postgres to see them.
        </p>
      ) : (
        <>
          <WorkerTable workers={fleet.workers} now={props.now} />
          <QueueView queue={fleet.queue} now={props.now} />
        </>
      )}
    </div>
  );
}

function WorkerTable(props: { workers: WorkerRow[]; now: number }) {
  if (props.workers.length === 0) return <p class="empty">No worker has started yet.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>worker</th>
          <th>state</th>
          <th class="num">slots</th>
          <th>running</th>
          <th class="wide">heartbeat</th>
          <th class="num wide">takeovers</th>
          <th class="wide">host</th>
        </tr>
      </thead>
      <tbody>
        {props.workers.map((w) => (
          <tr id={`w-${w.name}`}>
            <td>{w.name}</td>
            <td>
              <span class={`badge s-${w.state === "running" ? "alive" : w.state}`}>{w.state === "running" ? "alive" : w.state}</span>
            </td>
            <td class="num">
              {w.running.length} / {w.concurrency}
            </td>
            <td>
              {w.running.map((id) => (
                <a href={`/sessions/${id}`}>{shortId(id)} </a>
              ))}
            </td>
            <td class="wide">{ago(w.heartbeatAt, props.now)}</td>
            <td class="num wide">{w.takeovers}</td>
            <td class="wide muted">
              {w.host}:{w.pid}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function QueueView(props: { queue: QueueSummary; now: number }) {
  const { queue } = props;
  return (
    <>
      <h2>Queue</h2>
      <div class="totals">
        <span>
          queued <b>{queue.queued}</b>
        </span>
        <span>
          active <b>{queue.active}</b>
        </span>
        <span>
          retrying <b>{queue.retrying}</b>
        </span>
        <span>
          dead-lettered <b>{queue.deadLettered.length}</b>
        </span>
      </div>
      {queue.deadLettered.length ? (
        <>
          <h2>Could not start</h2>
          <table>
            <tbody>
              {queue.deadLettered.map(({ session, repo }) => (
                <tr>
                  <td class="task">
                    <a href={`/sessions/${session.id}`}>{shortId(session.id)}</a> {session.title || session.task}
                  </td>
                  <td class="wide">{repoName(repo)}</td>
                  <td class="muted">{session.lastError ?? ""}</td>
                  <td>
                    <button
                      hx-post="/actions/retry"
                      hx-vals={JSON.stringify({ session: session.id })}
                      hx-target="#toast"
                      hx-swap="innerHTML"
                    >
                      Retry
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {queue.schedules.length ? (
        <>
          <h2>Schedules</h2>
          <table>
            <tbody>
              {queue.schedules.map((s) => (
                <tr>
                  <td>{s.name}</td>
                  <td>
                    <code>{s.cron}</code>
                  </td>
                  <td class="task">{s.task}</td>
                  <td class="wide">{repoName(s.repo)}</td>
                  <td class="muted">{s.next ? `next ${s.next.toLocaleString()}` : "no next firing"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </>
  );
}
