import { describeEvent, type EventSink, type LoopControl, type LoopEvent, type SessionRecord, type Store } from "@hatloop/core";
import { jsonSink } from "../sinks/json.js";
import { plainSink } from "../sinks/plain.js";
import type { OutputMode } from "./output-mode.js";
import { snapshotOf } from "./snapshot.js";

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
  const write = (line: string) => process.stdout.write(`${line}\n`);
  if (mode !== "tui") {
    return {
      sink: mode === "json" ? jsonSink(write) : plainSink(write),
      notice: (text) => process.stderr.write(`hatloop: ${text}\n`),
      attach: () => {},
      close: async () => {},
    };
  }
  // Loaded only on a terminal: plain and JSON runs never load React or Ink.
  const tui = await import("@hatloop/tui");
  const ui = tui.createTuiStore(tui.initialState(snapshotOf(session, await store.checklist.list(session.id))));
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
  };
  const view = tui.mountSession(ui, controls, () => controls.interrupt());
  let last: LoopEvent | null = null;
  return {
    sink: (event) => {
      ui.push(event);
      if (event.type === "session.end") last = event;
    },
    notice: (text) => ui.notice(text),
    attach: (next) => (control = next),
    close: async () => {
      view.close();
      await view.closed;
      // The last frame stays on screen; the outcome goes below it in plain words.
      const line = last ? describeEvent(last) : null;
      if (line) process.stdout.write(`\n${line}\n`);
    },
  };
}
