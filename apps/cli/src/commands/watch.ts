import type { Command } from "commander";
import { followEvents, toLoopEvent, type SessionRecord, type Store } from "@hatloop/core";
import { CliError } from "../errors.js";
import { configFor, openConfiguredStore, resolveSession } from "../runtime.js";
import { isLive } from "../session/liveness.js";
import { jsonSink } from "../sinks/json.js";
import { plainSink } from "../sinks/plain.js";
import { outputMode, type OutputMode } from "../ui/output-mode.js";
import { snapshotOf } from "../ui/snapshot.js";

/** How much history a watcher replays on attach; older events are in `hatloop logs`. */
const TAIL = 2_000;

export function registerWatch(program: Command): void {
  program
    .command("watch")
    .description("follow a session from another terminal (default: the most recent running one)")
    .argument("[session]", "session id or a unique prefix of it")
    .option("--json", "print events as JSON lines")
    .option("--plain", "plain lines even on a terminal (no TUI)")
    .action(async (id: string | undefined, flags: { json?: boolean; plain?: boolean }, command: Command) => {
      const store = await openConfiguredStore(configFor(command));
      try {
        const session = id ? await resolveSession(store, id) : await mostRecentRunning(store);
        await watchSession(store, session, outputMode(flags));
      } finally {
        await store.close();
      }
    });
}

export function watchSession(store: Store, session: SessionRecord, mode: OutputMode): Promise<void> {
  return mode === "tui" ? watchInTui(store, session) : watchAsLines(store, session, mode === "json");
}

async function mostRecentRunning(store: Store): Promise<SessionRecord> {
  const running = (await store.sessions.list({ status: ["running"], limit: 20 })).filter((s) => isLive(s));
  if (!running[0]) throw new CliError("no session is running (see hatloop ls); name one to watch it");
  return running[0];
}

/** Lines until the run ends (or Ctrl-C), like `hatloop logs -f`. */
async function watchAsLines(store: Store, session: SessionRecord, json: boolean): Promise<void> {
  const write = (line: string) => process.stdout.write(`${line}\n`);
  const sink = json ? jsonSink(write) : plainSink(write);
  const tail = await store.events.tail(session.id, TAIL);
  tail.forEach((e) => sink(toLoopEvent(e)));
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  if (!isLive(session)) return;
  await followEvents(store, session.id, (events) => {
    events.forEach(sink);
    if (events.some((e) => e.type === "session.end")) stop.abort();
  }, { afterId: tail.at(-1)?.id ?? 0, signal: stop.signal });
}

async function watchInTui(store: Store, session: SessionRecord): Promise<void> {
  const tui = await import("@hatloop/tui");
  const ui = tui.createTuiStore(tui.initialState(snapshotOf(session, await store.checklist.list(session.id))));
  const tail = await store.events.tail(session.id, TAIL);
  tail.forEach((e) => ui.push(toLoopEvent(e)));
  const stop = new AbortController();
  const view = tui.mountSession(ui, undefined, () => stop.abort());
  const following = followEvents(store, session.id, (events) => events.forEach((e) => ui.push(e)), { afterId: tail.at(-1)?.id ?? 0, signal: stop.signal });
  await view.closed;
  stop.abort();
  await following;
}
