import { Box, Text, useInput, useStdin } from "ink";
import { useRef, useState } from "react";
import { ActivityPane, jumpIteration } from "../components/ActivityPane.js";
import { FOLLOW, resolveOffset, scrollTo, type ActivityScroll } from "../components/activity-lines.js";
import { ChecklistPane } from "../components/ChecklistPane.js";
import { ContextBar } from "../components/ContextBar.js";
import { Header } from "../components/Header.js";
import { HatTimeline } from "../components/HatTimeline.js";
import { footerText } from "../components/keys.js";
import { applyKey, EMPTY_DRAFT, typeText, type Draft, type EditKey } from "../components/line-editor.js";
import { HelpOverlay, QuestionLine, QuitConfirm, SteerInput } from "../components/Overlays.js";
import { ScratchpadPane } from "../components/ScratchpadPane.js";
import { col } from "../components/theme.js";
import type { TuiStore } from "../state/store.js";
import type { TuiState } from "../state/types.js";
import { layoutFor } from "./layout.js";
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
  size?: { columns: number; rows: number };
  now?: number;
}

type Focus = "activity" | "checklist" | "scratchpad";
type Overlay = "help" | "steer" | "answer" | "quit" | null;
const FOCUS_ORDER: Focus[] = ["activity", "checklist", "scratchpad"];

export function SessionView({ store, controls, onQuit, onInterrupt, size, now: fixedNow }: SessionViewProps) {
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
    state.checklist.length,
    (overlay === "steer" || overlay === "answer" || overlay === "quit" ? 1 : 0) + (question === null ? 0 : 1),
  );
  const activityRows = Math.max(0, (layout.twoColumns ? layout.bodyRows : layout.bodyRows - layout.checklistRows) - 1);
  const scratchRows = Math.max(0, (layout.twoColumns ? layout.bodyRows - layout.checklistRows : activityRows + 1) - 1);
  const checklistRows = Math.max(0, layout.checklistRows - 1);
  const activityOffset = resolveOffset(state, activityRef.current, activityRows);

  const maxSide = (pane: "checklist" | "scratchpad") =>
    pane === "checklist"
      ? Math.max(0, state.checklist.length - checklistRows)
      : Math.max(0, (state.scratchpad ? state.scratchpad.split("\n").length : 0) - scratchRows);
  const setSide = (pane: "checklist" | "scratchpad", value: number) => {
    sideRef.current = { ...sideRef.current, [pane]: Math.max(0, Math.min(value, maxSide(pane))) };
    rerender();
  };
  /** Scrolls the focused pane: `delta` lines towards the oldest (activity, checklist) or down (scratchpad); ±Infinity for Home/End. */
  const scroll = (delta: number) => {
    const pane = focusRef.current;
    if (pane === "activity") {
      const current = resolveOffset(store.getState(), activityRef.current, activityRows);
      activityRef.current = scrollTo(
        store.getState(),
        delta === Infinity ? Number.MAX_SAFE_INTEGER : delta === -Infinity ? 0 : current + delta,
        activityRows,
      );
      return rerender();
    }
    const current = sideRef.current[pane];
    const down = pane === "scratchpad" ? -delta : delta;
    setSide(pane, down === Infinity ? maxSide(pane) : down === -Infinity ? 0 : current + down);
  };
  const interrupt = () => {
    if (!controls) return onQuit();
    store.notice("interrupting: writing a checkpoint, then pausing (Ctrl-C again to exit at once)", "warn");
    (onInterrupt ?? (() => controls.interrupt()))();
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
      if (overlay === "steer" || overlay === "answer") return steerKey(input, key);
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
        const current = resolveOffset(store.getState(), activityRef.current, activityRows);
        activityRef.current = scrollTo(
          store.getState(),
          jumpIteration(store.getState(), activityRows, current, input === "[" ? -1 : 1),
          activityRows,
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

  function steerKey(input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]) {
    const draft = draftRef.current;
    if (key.escape) {
      setDraft(EMPTY_DRAFT);
      return setOverlay(null);
    }
    if (key.return) {
      const text = draft.text.trim();
      if (text && overlayRef.current === "answer") {
        controls?.answer(text);
        store.notice(`answer sent: ${text}`, "you");
      } else if (text) {
        controls?.steer(text);
        store.notice(`steering queued for the next iteration: ${text}`, "you");
      }
      setDraft(EMPTY_DRAFT);
      return setOverlay(null);
    }
    const edit: EditKey | null = key.leftArrow
      ? "left"
      : key.rightArrow
        ? "right"
        : key.home || (key.ctrl && input === "a")
          ? "home"
          : key.end || (key.ctrl && input === "e")
            ? "end"
            : key.ctrl && input === "u"
              ? "kill-start"
              : key.ctrl && input === "k"
                ? "kill-end"
                : key.ctrl && input === "w"
                  ? "kill-word"
                  : key.ctrl && input === "d"
                    ? "delete"
                    : null;
    if (edit) return setDraft(applyKey(draft, edit));
    // A lone Backspace (DEL or BS); several in one read come as text and are handled there.
    if ((key.backspace || key.delete) && !/[^\x7f\b]/.test(input)) return setDraft(applyKey(draft, "backspace"));
    if (key.ctrl || key.meta) return;
    // Enter in the same read as the text before it (fast typing, a script): type, then send.
    if (/[\r\n]$/.test(input)) {
      draftRef.current = typeText(draft, input.replace(/[\r\n]+$/, ""));
      return steerKey("", { ...key, return: true });
    }
    setDraft(typeText(draft, input));
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
      <ActivityPane state={state} width={columns} height={activityRows + 1} focused={focus === "activity"} offset={activityOffset} />
    );
  const footer = footerText(
    {
      controls: Boolean(controls),
      live,
      paused: state.status === "paused" || Boolean(controls?.paused),
      waiting: question !== null,
      scrolled: activityOffset > 0,
      overlay,
    },
    columns,
  );
  return (
    <Box flexDirection="column" width={columns} height={rows} overflow="hidden">
      <Header state={state} width={columns} now={now} mode={controls ? "run" : "watch"} />
      <ContextBar state={state} width={columns} />
      <HatTimeline state={state} width={columns} />
      {overlay === "help" ? (
        <Box height={layout.bodyRows} flexDirection="column">
          <HelpOverlay controls={Boolean(controls)} width={columns} height={layout.bodyRows} />
        </Box>
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
      {overlay === "steer" || overlay === "answer" ? (
        <SteerInput draft={draftRef.current} width={columns} prompt={overlay === "answer" ? "answer> " : "steer> "} />
      ) : null}
      {overlay === "quit" ? <QuitConfirm /> : null}
      <Text color={col("gray")} wrap="truncate-end">
        {footer}
      </Text>
    </Box>
  );
}

function isLive(store: TuiStore): boolean {
  return isLiveStatus(store.getState().status);
}

function isLiveStatus(status: TuiState["status"]): boolean {
  return status === "running" || status === "waiting" || status === "paused" || status === "starting";
}
