import { formatCost, formatDuration, shortId } from "@hatloop/core";
import { render } from "ink";
import { SessionList, type ListChoice, type ListRow, type ListSource, type ListState } from "./views/SessionList.js";
import { SessionView, type SessionViewProps } from "./views/SessionView.js";
import type { TuiStore } from "./state/store.js";
import type { TuiState } from "./state/types.js";
import { VIEW_OPTIONS } from "./view-options.js";
import { MOUSE_OFF, MOUSE_ON } from "./terminal/mouse.js";
import { clean } from "./components/lines.js";
import { Suspendable } from "./terminal/Suspendable.js";
import { followTitle } from "./terminal/title.js";

// Entry points for the CLI, which imports this package lazily (only on a terminal), so plain and
// JSON output never load React or Ink. The views draw on the alternate screen (as vim, less and
// lazygit do): the user's shell output and scrollback stay untouched, and on leaving, the normal
// screen is back as it was, with the CLI's short plain summary below it.

const ENTER_ALT = "\x1b[?1049h\x1b[H";
const LEAVE_ALT = "\x1b[?1049l";

/** Enters the alternate screen; the returned function leaves it (once, also when the process exits). */
function alternateScreen(stream: NodeJS.WriteStream = process.stdout, mouse = false): () => void {
  if (!stream.isTTY) return () => {};
  stream.write(ENTER_ALT + (mouse ? MOUSE_ON : ""));
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    process.off("exit", leave);
    stream.write((mouse ? MOUSE_OFF : "") + LEAVE_ALT);
  };
  process.on("exit", leave);
  return leave;
}

export interface MountedView {
  /** Resolves when the user quit (q) or `close()` was called. */
  closed: Promise<void>;
  close(): void;
}

/** The live session view: with `controls` the loop runs here; without, we are watching. */
export function mountSession(
  store: TuiStore,
  { controls, onQuit, onInterrupt, details, changes, raiseBudget }: Partial<Omit<SessionViewProps, "store" | "size" | "now">> = {},
): MountedView {
  let close = () => {};
  const closed = new Promise<void>((resolve) => {
    const leave = alternateScreen(process.stdout, true);
    const stopTitle = followTitle(
      process.stdout,
      () => sessionTitle(store.getState()),
      (listener) => store.subscribe(listener),
    );
    const app = render(
      <Suspendable alternate={Boolean(process.stdout.isTTY)} mouse>
        <SessionView
          store={store}
          controls={controls}
          onInterrupt={onInterrupt}
          details={details}
          changes={changes}
          raiseBudget={raiseBudget}
          onQuit={() => {
            onQuit?.();
            if (!controls) close();
          }}
        />
      </Suspendable>,
      VIEW_OPTIONS,
    );
    close = () => {
      close = () => {};
      store.flush();
      stopTitle();
      app.unmount();
      leave();
      resolve();
    };
  });
  return { closed, close: () => close() };
}

/** The terminal's title while a session is shown: its status and cost first (a tab shows the start). */
function sessionTitle(state: TuiState): string {
  const budget = state.budgets.maxCostUsd === null ? "" : `/${formatCost(state.budgets.maxCostUsd)}`;
  return `hatloop: ${state.status} · ${formatCost(state.costUsd)}${budget} · ${shortId(state.sessionId)} · iteration ${state.iteration}`;
}

/** Plain lines for the normal screen after the view is gone: where the session stands, and its hats. */
export function summaryLine(state: TuiState, now = Date.now()): string {
  const elapsed = state.runtimeMs + (state.runningSince === null ? 0 : Math.max(0, now - state.runningSince));
  const status = state.statusReason ? `${state.status} (${state.statusReason})` : state.status;
  const hats = state.hats.map((h, i) => (i === 0 ? h.hat : `${h.hat}@${h.iteration}`)).join(" → ");
  return `hatloop · ${shortId(state.sessionId)} · ${clean(status)} · iteration ${state.iteration} · ${formatDuration(elapsed)} · ${formatCost(state.costUsd)}\nhats: ${clean(hats)}`;
}

/**
 * The home screen until the user quits or opens a session; `initial`: the state it had when one was
 * opened (filter, selection), to come back to.
 */
export function chooseSession(rows: ListRow[] | ListSource, initial?: ListState): Promise<{ choice: ListChoice; state: ListState }> {
  return new Promise((resolve) => {
    const leave = alternateScreen();
    const app = render(
      <Suspendable alternate={Boolean(process.stdout.isTTY)}>
        <SessionList
          rows={Array.isArray(rows) ? rows : undefined}
          source={Array.isArray(rows) ? undefined : rows}
          initial={initial}
          onChoose={(choice, state) => {
            app.unmount();
            leave();
            resolve({ choice, state });
          }}
        />
      </Suspendable>,
      VIEW_OPTIONS,
    );
  });
}
