import { Box, Text, useStdin } from "ink";
import { useRef, useState } from "react";
import { ActivityPane } from "../components/ActivityPane.js";
import { resolveOffset } from "../components/activity-lines.js";
import { matchesOf } from "../components/activity-search.js";
import { selectionOf } from "../components/activity-selection.js";
import { ChecklistPane } from "../components/ChecklistPane.js";
import { checklistLines } from "../components/checklist-lines.js";
import { ContextBar } from "../components/ContextBar.js";
import { doingLine } from "../components/doing.js";
import { DetailOverlay } from "../components/DetailOverlay.js";
import { FilesOverlay } from "../components/FilesOverlay.js";
import { Header } from "../components/Header.js";
import { HatTimeline } from "../components/HatTimeline.js";
import { footerText } from "../components/keys.js";
import { HelpOverlay, QuestionLine, QuitConfirm, SteerInput } from "../components/Overlays.js";
import { ScratchpadPane } from "../components/ScratchpadPane.js";
import { SideFilesPane } from "../components/SideFilesPane.js";
import { col } from "../components/theme.js";
import type { TuiStore } from "../state/store.js";
import { isLiveStatus } from "../state/initial.js";
import { layoutFor, panesOf } from "./layout.js";
import { useKeys } from "./use-keys.js";
import { useLastChanges } from "./use-last-changes.js";
import { useTerminalActions } from "./use-terminal-actions.js";
import { useNow, useTerminalSize, useTuiState } from "./use-tui.js";
import { reduceView } from "./view-keys.js";
import { performEffect, type BudgetRaiser, type ChangesLoader, type DetailLoader, type LoopControls } from "./view-effects.js";
import { CostPanel } from "../components/CostPanel.js";
import { INITIAL_VIEW, type ViewInput, type ViewState } from "./view-state.js";

export type { ChangesLoader, LoopControls };

export interface SessionViewProps {
  store: TuiStore;
  /** Present when the loop runs in this process; absent when watching. */
  controls?: LoopControls;
  /** Quit confirmed (run) or detach (watch). */
  onQuit: () => void;
  /** Ctrl-C in the run view (default: controls.interrupt()). */
  onInterrupt?: () => void;
  /** Loads an opened entry's whole content from the store (absent: what the event carried is shown). */
  details?: DetailLoader;
  /** Reads the checkpoints' diffs from the worktree (absent: the files view says it cannot). */
  changes?: ChangesLoader;
  /** Raises the cost budget from the cost panel ($, then +). */
  raiseBudget?: BudgetRaiser;
  size?: { columns: number; rows: number };
  now?: number;
}

export function SessionView({
  store,
  controls,
  onQuit,
  onInterrupt,
  details,
  changes,
  raiseBudget,
  size,
  now: fixedNow,
}: SessionViewProps) {
  const state = useTuiState(store);
  const { columns, rows: terminalRows } = useTerminalSize(size);
  // One row short of the terminal: a frame as tall as the terminal makes Ink clear the whole screen
  // and draw it all again on every frame, instead of rewriting the rows that changed.
  const rows = Math.max(6, terminalRows - 1);
  const live = isLiveStatus(state.status);
  const question = state.status === "waiting" ? (state.statusReason ?? "") : null;
  const now = useNow(state.runningSince !== null, fixedNow);
  const { isRawModeSupported } = useStdin();
  // Keys can arrive faster than React re-renders, so the view's state lives in a ref that each key
  // moves at once (reduceView); the tick only asks for a render.
  const viewRef = useRef<ViewState>(INITIAL_VIEW);
  const [, setTick] = useState(0);
  const terminal = useTerminalActions();
  const view = viewRef.current;
  const { overlay, focus } = view;
  const last = useLastChanges(state, changes, columns >= 100 && rows >= 30);
  const layout = layoutFor(
    columns,
    rows,
    (width) => checklistLines(state, width).length,
    (overlay === "steer" || overlay === "answer" || overlay === "quit" || overlay === "search" || overlay === "budget" ? 1 : 0) +
      (question === null ? 0 : 1),
    last ? Math.max(1, last.files.length) : 0,
  );
  const panes = panesOf(layout, columns);
  const activityPane = { ...panes.activity, folded: view.folded };
  const activityOffset = resolveOffset(state, view.activity, activityPane);
  const selected = selectionOf(state, view.selected, activityOffset, activityPane);
  // Marked only when it is not simply the newest line: scrolled up, or a search's match.
  const marked = view.selected !== null || activityOffset > 0 ? selected : null;
  const matches = view.query === null ? null : matchesOf(state, view.query);
  const doing = doingLine(state, now);

  const dispatch = (input: ViewInput) => {
    const context = {
      tui: store.getState(),
      panes,
      controls: Boolean(controls),
      paused: Boolean(controls?.paused),
      canLoadDetails: details !== undefined,
      canRaiseBudget: raiseBudget !== undefined,
    };
    const next = reduceView(viewRef.current, input, context);
    viewRef.current = next.view;
    setTick((t) => t + 1);
    for (const effect of next.effects)
      performEffect(effect, { store, controls, onQuit, onInterrupt, details, terminal, changes, raiseBudget }, dispatch);
  };
  useKeys(({ input, key }, followed) => dispatch({ type: "key", input, key, followed }), isRawModeSupported === true);

  const side = (
    <Box flexDirection="column" width={layout.sideWidth}>
      <ChecklistPane
        state={state}
        width={layout.sideWidth}
        height={layout.checklistRows}
        focused={focus === "checklist"}
        offset={view.side.checklist}
      />
      {last && layout.filesRows > 0 ? <SideFilesPane last={last} width={layout.sideWidth} height={layout.filesRows} /> : null}
      {layout.twoColumns ? (
        <ScratchpadPane
          state={state}
          width={layout.sideWidth}
          height={layout.bodyRows - layout.checklistRows - layout.filesRows}
          focused={focus === "scratchpad"}
          offset={view.side.scratchpad}
        />
      ) : null}
    </Box>
  );
  const narrowMain =
    focus === "scratchpad" ? (
      <ScratchpadPane state={state} width={columns} height={panes.activity.rows + 1} focused offset={view.side.scratchpad} />
    ) : (
      <ActivityPane
        state={state}
        width={columns}
        height={panes.activity.rows + 1}
        focused={focus === "activity"}
        offset={activityOffset}
        selected={marked}
        folded={view.folded}
        query={view.query}
        doing={doing}
      />
    );
  const footer = footerText(
    {
      controls: Boolean(controls),
      live,
      paused: state.status === "paused" || Boolean(controls?.paused),
      waiting: question !== null,
      scrolled: activityOffset > 0,
      overlay,
      search: matches && { index: view.selected === null ? 0 : matches.indexOf(view.selected) + 1, count: matches.length },
    },
    columns,
  );
  return (
    <Box flexDirection="column" width={columns} height={rows} overflowY="hidden">
      <Header state={state} width={columns} now={now} mode={controls ? "run" : "watch"} />
      <ContextBar state={state} width={columns} />
      <HatTimeline state={state} width={columns} />
      {overlay === "help" ? (
        <Box height={layout.bodyRows} flexDirection="column">
          <HelpOverlay controls={Boolean(controls)} width={columns} height={layout.bodyRows} />
        </Box>
      ) : overlay === "files" ? (
        <FilesOverlay state={state} view={view.files} width={columns} height={layout.bodyRows} />
      ) : overlay === "cost" || overlay === "budget" ? (
        <CostPanel
          sessionId={state.sessionId}
          figures={{ ...state, maxCostUsd: state.budgets.maxCostUsd, runtimeMs: elapsedMs(state, now) }}
          width={columns}
          height={layout.bodyRows}
        />
      ) : overlay === "detail" && view.detail ? (
        <DetailOverlay view={view.detail} width={columns} height={layout.bodyRows} />
      ) : layout.twoColumns ? (
        <Box height={layout.bodyRows}>
          {side}
          <Box width={1} />
          <ActivityPane
            state={state}
            width={layout.mainWidth}
            height={layout.bodyRows}
            focused={focus === "activity"}
            offset={activityOffset}
            selected={marked}
            folded={view.folded}
            query={view.query}
            doing={doing}
          />
        </Box>
      ) : (
        <Box flexDirection="column" height={layout.bodyRows}>
          {side}
          {narrowMain}
        </Box>
      )}
      {question === null ? null : (
        <QuestionLine question={question} sessionId={state.sessionId} controls={Boolean(controls)} width={columns} />
      )}
      {overlay === "steer" || overlay === "answer" || overlay === "search" || overlay === "budget" ? (
        <SteerInput draft={view.draft} width={columns} prompt={PROMPTS[overlay]} />
      ) : null}
      {overlay === "quit" ? <QuitConfirm /> : null}
      <Text color={col("gray")} wrap="truncate-end">
        {footer}
      </Text>
    </Box>
  );
}

const PROMPTS = { steer: "steer> ", answer: "answer> ", search: "/", budget: "more cost budget, $ " } as const;

/** The session's running time now: what was stored, and the run's current stretch. */
function elapsedMs(state: { runtimeMs: number; runningSince: number | null }, now: number): number {
  return state.runtimeMs + (state.runningSince === null ? 0 : Math.max(0, now - state.runningSince));
}
