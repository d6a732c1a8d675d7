import { render } from "ink";
import { SessionList, type ListChoice, type ListRow } from "./views/SessionList.js";
import { SessionView, type LoopControls } from "./views/SessionView.js";
import type { TuiStore } from "./state/store.js";

// Entry points for the CLI, which imports this package lazily (only on a terminal), so plain and
// JSON output never load React or Ink.

export interface MountedView {
  /** Resolves when the user quit (q) or `close()` was called. */
  closed: Promise<void>;
  close(): void;
}

/** The live session view: with `controls` the loop runs here; without, we are watching. */
export function mountSession(store: TuiStore, controls?: LoopControls, onQuit?: () => void): MountedView {
  let close = () => {};
  const closed = new Promise<void>((resolve) => {
    const app = render(
      <SessionView
        store={store}
        controls={controls}
        onQuit={() => {
          onQuit?.();
          if (!controls) close();
        }}
      />,
      // Only changed lines are redrawn, at most 20 times a second (the store throttles too).
      { exitOnCtrlC: false, patchConsole: false, incrementalRendering: true, maxFps: 20 },
    );
    close = () => {
      store.flush();
      app.unmount();
      resolve();
    };
  });
  return { closed, close: () => close() };
}

export function chooseSession(rows: ListRow[]): Promise<ListChoice> {
  return new Promise((resolve) => {
    const app = render(
      <SessionList
        rows={rows}
        onChoose={(choice) => {
          app.unmount();
          resolve(choice);
        }}
      />,
      { exitOnCtrlC: false, patchConsole: false },
    );
  });
}
