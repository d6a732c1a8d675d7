import {
  describeEvent,
  redactingSink,
  type EventSink,
  type LoopControl,
  type LoopEvent,
  type SessionRecord,
  type Store,
} from "@hatloop/core";
import { printError, printText } from "../output/print.js";
import { printedEvents } from "../sinks/printed.js";
import type { OutputMode } from "./output-mode.js";
import { entryDetails } from "./entry-details.js";
import { worktreeChanges } from "./worktree-changes.js";
import { hatHistory } from "./history.js";
import { snapshotOf } from "./snapshot.js";
import { budgetRaiser } from "./budget-raiser.js";

// Where a run's events go: plain lines, JSON lines, or the Ink TUI. One shape for all three, so
// the code that drives a session (and the demo, which runs two parts in one view) does not care.

export interface SessionUi {
  sink: EventSink;
  /** A message from the CLI itself, not a loop event. */
  notice(text: string): void;
  /** Gives the view the controls of the loop now running (the demo runs two loops in one view). */
  attach(control: LoopControl): void;
  close(): Promise<void>;
}

export async function openSessionUi(mode: OutputMode, session: SessionRecord, store: Store): Promise<SessionUi> {
  if (mode !== "tui") {
    return {
      sink: printedEvents(mode === "json"),
      notice: printError,
      attach: () => {},
      close: async () => {},
    };
  }
  // Loaded only on a terminal: plain and JSON runs never load React or Ink.
  const tui = await import("@hatloop/tui");
  // A resumed session's timeline goes on from its stored events (a new one has none: it starts with session.start).
  const hats = await hatHistory(store, session.id);
  const ui = tui.createTuiStore(tui.initialState({ ...snapshotOf(session, await store.checklist.list(session.id)), hats }));
  let control: LoopControl | null = null;
  const controls = {
    get paused() {
      return control?.paused ?? false;
    },
    pause: () => control?.pause(),
    unpause: () => control?.unpause(),
    requestStop: () => control?.requestStop(),
    interrupt: () => control?.interrupt(),
    steer: (text: string) => control?.steer(text),
    answer: (text: string) => control?.answer(text),
  };
  // Ctrl-C in the view is the same as a Ctrl-C signal: the run's handler says so, checkpoints and
  // pauses, and a second one exits at once. Without a handler, the view's words are said here.
  const interrupt = () => {
    if (process.listenerCount("SIGINT") > 0) return void process.kill(process.pid, "SIGINT");
    ui.notice("interrupting: writing a checkpoint, then pausing (Ctrl-C again to exit at once)", "warn");
    controls.interrupt();
  };
  const view = tui.mountSession(ui, {
    controls,
    onQuit: () => controls.interrupt(),
    onInterrupt: interrupt,
    details: entryDetails(store, session.id),
    changes: worktreeChanges(store, session.id),
    raiseBudget: budgetRaiser(store, session.id, ui),
  });
  let last: LoopEvent | null = null;
  // What comes after the end (a pull request, a hook's failure) is printed with it when the view closes.
  const after: LoopEvent[] = [];
  return {
    // Shown redacted, like everything printed; the TUI makes the text harmless to the terminal.
    sink: redactingSink((event) => {
      ui.push(event);
      tui.ringFor(event); // completed, failed, a budget pause, a health stop: tell a user in another window
      if (event.type === "session.end") last = event;
      else if (last && (event.type === "pr.result" || event.type === "hook.failed")) after.push(event);
    }),
    notice: (text) => ui.notice(text),
    attach: (next) => (control = next),
    close: async () => {
      view.close();
      await view.closed;
      // The view was on the alternate screen: the normal screen gets where the session stands, in plain words.
      printText(tui.summaryLine(ui.getState()));
      for (const event of last ? [last, ...after] : []) {
        const line = describeEvent(event);
        if (line) printText(line);
      }
    },
  };
}
