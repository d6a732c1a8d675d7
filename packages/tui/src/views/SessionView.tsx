import { Box, Text, useInput, useStdin } from "ink";
import { useRef, useState } from "react";
import { ActivityPane } from "../components/ActivityPane.js";
import { FOLLOW, jumpIteration, offsetOfEntry, resolveOffset, scrollTo, type ActivityScroll } from "../components/activity-lines.js";
import { detailFor, selectionOf } from "../components/activity-selection.js";
import { matchesOf, stepMatch } from "../components/activity-search.js";
import { ChecklistPane } from "../components/ChecklistPane.js";
import { checklistLines } from "../components/checklist-lines.js";
import { ContextBar } from "../components/ContextBar.js";
import { DetailOverlay } from "../components/DetailOverlay.js";
import { Header } from "../components/Header.js";
import { HatTimeline } from "../components/HatTimeline.js";
import { footerText } from "../components/keys.js";
import { editDraft, EMPTY_DRAFT, type Draft, type KeyPress } from "../components/line-editor.js";
import { HelpOverlay, QuestionLine, QuitConfirm, SteerInput } from "../components/Overlays.js";
import { ScratchpadPane } from "../components/ScratchpadPane.js";
import { col } from "../components/theme.js";
import type { TuiStore } from "../state/store.js";
import { isLiveStatus } from "../state/initial.js";
import { layoutFor } from "./layout.js";
import { useDetail, type DetailLoader } from "./use-detail.js";
import { useNow, useTerminalSize, useTuiState } from "./use-tui.js";

/** What the run view may do to the loop (LoopControl fits it). */
export interface LoopControls {
  readonly paused: boolean;
  pause(): void;
  unpause(): void;
  requestStop(): void;
  interrupt(): void;
  steer(text: string): void;
  /** The answer to the agent's question (status waiting). */
  answer(text: string): void;
}

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
  size?: { columns: number; rows: number };
  now?: number;
}

type Focus = "activity" | "checklist" | "scratchpad";
type Overlay = "help" | "steer" | "answer" | "quit" | "search" | "detail" | null;
const FOCUS_ORDER: Focus[] = ["activity", "checklist", "scratchpad"];

export function SessionView({ store, controls, onQuit, onInterrupt, details, size, now: fixedNow }: SessionViewProps) {
  const state = useTuiState(store);
  const { columns, rows: terminalRows } = useTerminalSize(size);
  // One row short of the terminal: a frame as tall as the terminal makes Ink clear the whole screen
  // (and the scrollback) on every frame instead of redrawing the lines that changed.
  const rows = Math.max(6, terminalRows - 1);
  const live = isLiveStatus(state.status);
  const question = state.status === "waiting" ? (state.statusReason ?? "") : null;
  const now = useNow(state.runningSince !== null, fixedNow);
  const { isRawModeSupported } = useStdin();
  const [focus, setFocusState] = useState<Focus>("activity");
  // Keys can arrive faster than React re-renders, so what the handler reads lives in refs (the
  // state copies only drive rendering).
  const [, setTick] = useState(0);
  const rerender = () => setTick((t) => t + 1);
  const focusRef = useRef<Focus>("activity");
  const overlayRef = useRef<Overlay>(null);
  const draftRef = useRef<Draft>(EMPTY_DRAFT);
  const activityRef = useRef<ActivityScroll>(FOLLOW);
  const sideRef = useRef<Record<"checklist" | "scratchpad", number>>({ checklist: 0, scratchpad: 0 });
  // The entry a search jumped to (Enter opens it); without one, the entry at the bottom of the view.
  const selectedRef = useRef<number | null>(null);
  const queryRef = useRef<string | null>(null);
  const detail = useDetail(details, rerender);
  const overlay = overlayRef.current;
  const setOverlay = (next: Overlay) => {
    overlayRef.current = next;
    rerender();
  };
  const setFocus = (next: Focus) => {
    focusRef.current = next;
    setFocusState(next);
  };
  const setDraft = (next: Draft) => {
    draftRef.current = next;
    rerender();
  };
  const layout = layoutFor(
    columns,
    rows,
    (width) => checklistLines(state, width).length,
    (overlay === "steer" || overlay === "answer" || overlay === "quit" || overlay === "search" ? 1 : 0) + (question === null ? 0 : 1),
  );
  const activityRows = Math.max(0, (layout.twoColumns ? layout.bodyRows : layout.bodyRows - layout.checklistRows) - 1);
  const scratchRows = Math.max(0, (layout.twoColumns ? layout.bodyRows - layout.checklistRows : activityRows + 1) - 1);
  const checklistRows = Math.max(0, layout.checklistRows - 1);
  const activityPane = { rows: activityRows, width: layout.twoColumns ? layout.mainWidth : columns };
  const activityOffset = resolveOffset(state, activityRef.current, activityPane);
  const explicit = selectedRef.current;
  const selected = selectionOf(state, explicit, activityOffset, activityPane.width);
  // Marked only when it is not simply the newest line: scrolled up, or a search's match.
  const marked = explicit !== null || activityOffset > 0 ? selected : null;
  const matches = queryRef.current === null ? null : matchesOf(state, queryRef.current);

  const maxSide = (pane: "checklist" | "scratchpad") =>
    pane === "checklist"
      ? Math.max(0, checklistLines(state, layout.sideWidth).length - checklistRows)
      : Math.max(0, (state.scratchpad ? state.scratchpad.split("\n").length : 0) - scratchRows);
  const setSide = (pane: "checklist" | "scratchpad", value: number) => {
    sideRef.current = { ...sideRef.current, [pane]: Math.max(0, Math.min(value, maxSide(pane))) };
    rerender();
  };
  /** Scrolls the focused pane: `delta` lines towards the oldest (activity, checklist) or down (scratchpad); ±Infinity for Home/End. */
  const scroll = (delta: number) => {
    const pane = focusRef.current;
    if (pane === "activity") {
      selectedRef.current = null;
      const current = resolveOffset(store.getState(), activityRef.current, activityPane);
      activityRef.current = scrollTo(
        store.getState(),
        delta === Infinity ? Number.MAX_SAFE_INTEGER : delta === -Infinity ? 0 : current + delta,
        activityPane,
      );
      return rerender();
    }
    const current = sideRef.current[pane];
    const down = pane === "scratchpad" ? -delta : delta;
    setSide(pane, down === Infinity ? maxSide(pane) : down === -Infinity ? 0 : current + down);
  };
  const interrupt = () => {
    if (!controls) return onQuit();
    // The CLI's handler (a SIGINT, as from the terminal) says what it does; without one, the view does.
    if (onInterrupt) return onInterrupt();
    store.notice("interrupting: writing a checkpoint, then pausing (Ctrl-C again to exit at once)", "warn");
    controls.interrupt();
  };
  /** Selects entry `id` (a search's match) and scrolls its last line to the bottom of the view. */
  const select = (id: number | null) => {
    selectedRef.current = id;
    const at = id === null ? -1 : offsetOfEntry(store.getState(), activityPane.width, id);
    if (at >= 0) activityRef.current = scrollTo(store.getState(), at, activityPane);
    rerender();
  };
  const search = (query: string | null) => {
    queryRef.current = query || null;
    select(query ? stepMatch(matchesOf(store.getState(), query), null, 1) : null);
  };
  const openSelected = () => {
    const s = store.getState();
    const opened = detailFor(
      s,
      selectionOf(s, selectedRef.current, resolveOffset(s, activityRef.current, activityPane), activityPane.width),
    );
    if (!opened) return;
    detail.open(opened);
    setOverlay("detail");
  };

  useInput(
    (input, key) => {
      const overlay = overlayRef.current;
      // Ctrl-C works whatever is open: it closes it and interrupts (run) or detaches (watch).
      if (key.ctrl && input === "c") {
        if (overlay) setOverlay(null);
        return interrupt();
      }
      if (overlay === "help") return setOverlay(null);
      if (overlay === "quit") {
        if (input === "y") {
          setOverlay(null);
          if (controls) store.notice("quitting: the loop stops now and pauses with a checkpoint", "warn");
          return onQuit();
        }
        if (input === "n" || key.escape) setOverlay(null);
        return;
      }
      if (overlay === "steer" || overlay === "answer" || overlay === "search") return promptKey(input, key);
      if (overlay === "detail") return detail.keyPress(input, key, columns, layout.bodyRows) ? undefined : setOverlay(null);
      if (key.escape && queryRef.current !== null) return search(null);
      if (key.return) return openSelected();
      if (input === "/") return setOverlay("search");
      if ((input === "n" || input === "N") && queryRef.current !== null)
        return select(stepMatch(matchesOf(store.getState(), queryRef.current), selectedRef.current, input === "n" ? 1 : -1));
      if (input === "q") return controls ? setOverlay("quit") : onQuit();
      if (input === "?") return setOverlay("help");
      if (key.tab) return setFocus(FOCUS_ORDER[(FOCUS_ORDER.indexOf(focusRef.current) + 1) % FOCUS_ORDER.length]!);
      if (key.upArrow) return scroll(1);
      if (key.downArrow) return scroll(-1);
      const page = Math.max(
        1,
        (focusRef.current === "activity" ? activityRows : focusRef.current === "checklist" ? checklistRows : scratchRows) - 1,
      );
      if (key.pageUp) return scroll(page);
      if (key.pageDown) return scroll(-page);
      if (key.home) return scroll(focusRef.current === "scratchpad" ? -Infinity : Infinity);
      if (key.end) return scroll(focusRef.current === "scratchpad" ? Infinity : -Infinity);
      if (input === "[" || input === "]") {
        setFocus("activity");
        selectedRef.current = null;
        const current = resolveOffset(store.getState(), activityRef.current, activityPane);
        activityRef.current = scrollTo(
          store.getState(),
          jumpIteration(store.getState(), activityPane, current, input === "[" ? -1 : 1),
          activityPane,
        );
        return rerender();
      }
      if (!controls || !isLive(store)) return;
      if (input === ":") return setOverlay("steer");
      if (input === "a" && store.getState().status === "waiting") return setOverlay("answer");
      if (input === "s") {
        controls.requestStop();
        return store.notice("stopping: the current iteration finishes, then a checkpoint", "warn");
      }
      if (input === "p") {
        if (controls.paused) {
          controls.unpause();
          store.notice("continuing", "good");
        } else {
          controls.pause();
          store.notice("pausing before the next iteration (p continues)", "warn");
        }
      }
    },
    { isActive: isRawModeSupported === true },
  );

  /** A key for the open prompt (steer, answer, search): edits the draft, or sends it, or discards it (Esc). */
  function promptKey(input: string, key: KeyPress) {
    const result = editDraft(draftRef.current, input, key);
    if ("draft" in result) return setDraft(result.draft);
    const text = result.submit;
    const prompt = overlayRef.current;
    setDraft(EMPTY_DRAFT);
    setOverlay(null);
    if (text !== null && prompt === "search") search(text);
    else if (text && prompt === "answer") {
      controls?.answer(text);
      store.notice(`answer sent: ${text}`, "you");
    } else if (text) {
      controls?.steer(text);
      store.notice(`steering queued for the next iteration: ${text}`, "you");
    }
  }

  const side = (
    <Box flexDirection="column" width={layout.sideWidth}>
      <ChecklistPane
        state={state}
        width={layout.sideWidth}
        height={layout.checklistRows}
        focused={focus === "checklist"}
        offset={sideRef.current.checklist}
      />
      {layout.twoColumns ? (
        <ScratchpadPane
          state={state}
          width={layout.sideWidth}
          height={layout.bodyRows - layout.checklistRows}
          focused={focus === "scratchpad"}
          offset={sideRef.current.scratchpad}
        />
      ) : null}
    </Box>
  );
  const narrowMain =
    focus === "scratchpad" ? (
      <ScratchpadPane state={state} width={columns} height={activityRows + 1} focused offset={sideRef.current.scratchpad} />
    ) : (
      <ActivityPane
        state={state}
        width={columns}
        height={activityRows + 1}
        focused={focus === "activity"}
        offset={activityOffset}
        selected={marked}
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
      search: matches && { index: explicit === null ? 0 : matches.indexOf(explicit) + 1, count: matches.length },
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
      ) : overlay === "detail" && detail.view.current ? (
        <DetailOverlay view={detail.view.current} width={columns} height={layout.bodyRows} />
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
      {overlay === "steer" || overlay === "answer" || overlay === "search" ? (
        <SteerInput draft={draftRef.current} width={columns} prompt={PROMPTS[overlay]} />
      ) : null}
      {overlay === "quit" ? <QuitConfirm /> : null}
      <Text color={col("gray")} wrap="truncate-end">
        {footer}
      </Text>
    </Box>
  );
}

const PROMPTS = { steer: "steer> ", answer: "answer> ", search: "/" } as const;

function isLive(store: TuiStore): boolean {
  return isLiveStatus(store.getState().status);
}
