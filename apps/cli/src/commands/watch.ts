import type { Command } from "commander";
import { EVENT_VERSION, eventReader, followEvents, redactingSink, type SessionRecord, type Store } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import { printError, printText } from "../output/print.js";
import { CliError } from "../errors.js";
import { configFor, openConfiguredStore, resolveSession } from "../runtime.js";
import { isLive } from "../session/liveness.js";
import { followAsLines } from "../sinks/follow-lines.js";
import { printedEvents } from "../sinks/printed.js";
import { outputMode, type OutputMode } from "../ui/output-mode.js";
import { entryDetails } from "../ui/entry-details.js";
import { worktreeChanges } from "../ui/worktree-changes.js";
import { budgetRaiser } from "../ui/budget-raiser.js";
import { hatHistory } from "../ui/history.js";
import { snapshotOf } from "../ui/snapshot.js";
import { runClock, whenRunGone } from "../ui/watched-run.js";
import { shortId } from "../format.js";
import { invocation } from "../invocation.js";

/** How much history a watcher replays on attach; older events are in `hatloop logs`. */
const TAIL = 2_000;

export async function watchAction(id: string | undefined, flags: { json?: boolean; plain?: boolean }, command: Command): Promise<void> {
  const store = await openConfiguredStore(configFor(command), { warm: true });
  try {
    const session = id ? await resolveSession(store, id) : await mostRecentRunning(store);
    await watchSession(store, session, outputMode(flags));
  } finally {
    await store.close();
  }
}

export function watchSession(store: DbStore, session: SessionRecord, mode: OutputMode): Promise<void> {
  return mode === "tui" ? watchInTui(store, session) : watchAsLines(store, session, mode === "json");
}

async function mostRecentRunning(store: Store): Promise<SessionRecord> {
  const running = (await store.sessions.list({ status: ["running", "waiting"], limit: 20 })).filter((s) => isLive(s));
  if (!running[0]) throw new CliError(`no session is running (see ${invocation()} ls); name one to watch it`);
  return running[0];
}

/** Lines until the run ends (a fleet session: until it leaves the queue), or Ctrl-C, like `hatloop logs -f`. */
async function watchAsLines(store: DbStore, session: SessionRecord, json: boolean): Promise<void> {
  const sink = printedEvents(json);
  const reader = eventReader(printError);
  const tail = await store.events.tail(session.id, TAIL);
  reader.read(tail).forEach(sink);
  await followAsLines(store, session, tail.at(-1)?.id ?? 0, { sink, reader, json });
  sink.end();
}

async function watchInTui(store: Store, attached: SessionRecord): Promise<void> {
  const tui = await import("@hatloop/tui");
  const tail = await store.events.tail(attached.id, TAIL);
  // Read after the tail: the row's runtime is then at least as new as the last iteration.end replayed.
  const session = (await store.sessions.get(attached.id)) ?? attached;
  // The timeline from the session's first hat: events older than the replayed tail are read for it.
  const hats = tail.length === TAIL ? await hatHistory(store, session.id, tail[0]!.id) : [];
  const ui = tui.createTuiStore(tui.initialState({ ...snapshotOf(session, await store.checklist.list(session.id)), hats }));
  const show = redactingSink((e) => ui.push(e));
  // Stderr belongs to the TUI here: an unreadable event is reported in the activity stream instead.
  const reader = eventReader((message) =>
    show({ v: EVENT_VERSION, sessionId: session.id, iteration: 0, ts: Date.now(), type: "error", data: { message, fatal: false } }),
  );
  const replayed = reader.read(tail);
  replayed.forEach(show);
  const state = ui.getState();
  // The stored totals already hold the responses replayed above (read after them), which added theirs.
  Object.assign(state, { usage: { ...session.usage }, costUsd: session.costUsd });
  // The run's own clock, not one started when this watcher attached (it ran seconds behind).
  const clock = state.runningSince === null ? null : runClock(session, replayed);
  if (clock) Object.assign(state, clock);
  const stop = new AbortController();
  const resume = `${invocation()} resume ${shortId(session.id)}`;
  whenRunGone(store, session.id, stop.signal, () => {
    if (tui.isLiveStatus(ui.getState().status)) tui.showRunGone(ui, resume);
  });
  const view = tui.mountSession(ui, {
    onQuit: () => stop.abort(),
    details: entryDetails(store, session.id),
    changes: worktreeChanges(store, session.id),
    raiseBudget: budgetRaiser(store, session.id, ui),
  });
  // Live events (not the replayed tail) ring the terminal when the session needs the user.
  const following = followEvents(
    store,
    session.id,
    (events) =>
      events.forEach((e) => {
        show(e);
        tui.ringFor(e);
      }),
    {
      afterId: tail.at(-1)?.id ?? 0,
      signal: stop.signal,
      reader,
    },
  );
  await view.closed;
  stop.abort();
  await following;
  const live = tui.isLiveStatus(state.status);
  printText(tui.summaryLine(state));
  if (live && state.runningSince !== null) printText("detached: the loop goes on");
  if (state.status === "interrupted") printText(`resume it with: ${resume}`);
}
