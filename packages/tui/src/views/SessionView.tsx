import { Box, Text, useInput, useStdin } from "ink";
import { useRef, useState } from "react";
import { ActivityPane, jumpIteration } from "../components/ActivityPane.js";
import { ChecklistPane } from "../components/ChecklistPane.js";
import { ContextBar } from "../components/ContextBar.js";
import { Header } from "../components/Header.js";
import { HatTimeline } from "../components/HatTimeline.js";
import { footerText } from "../components/keys.js";
import { HelpOverlay, QuitConfirm, SteerInput } from "../components/Overlays.js";
import { ScratchpadPane } from "../components/ScratchpadPane.js";
import type { TuiStore } from "../state/store.js";
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
}

export interface SessionViewProps {
  store: TuiStore;
  /** Present when the loop runs in this process; absent when watching. */
  controls?: LoopControls;
  /** Quit confirmed (run) or detach (watch). */
  onQuit: () => void;
  size?: { columns: number; rows: number };
  now?: number;
}

type Focus = "activity" | "checklist" | "scratchpad";
type Overlay = "help" | "steer" | "quit" | null;
const FOCUS_ORDER: Focus[] = ["activity", "checklist", "scratchpad"];

export function SessionView({ store, controls, onQuit, size, now: fixedNow }: SessionViewProps) {
  const state = useTuiState(store);
  const { columns, rows } = useTerminalSize(size);
  const now = useNow(state.status === "running", fixedNow);
  const { isRawModeSupported } = useStdin();
  const [focus, setFocus] = useState<Focus>("activity");
  const [offsets, setOffsets] = useState<Record<Focus, number>>({ activity: 0, checklist: 0, scratchpad: 0 });
  // Keys can arrive faster than React re-registers the input handler, so what the handler reads
  // lives in refs (the state copies only drive rendering).
  const [overlay, setOverlayState] = useState<Overlay>(null);
  const [steerText, setSteerTextState] = useState("");
  const overlayRef = useRef<Overlay>(null);
  const steerRef = useRef("");
  const setOverlay = (next: Overlay) => {
    overlayRef.current = next;
    setOverlayState(next);
  };
  const setSteerText = (next: string) => {
    steerRef.current = next;
    setSteerTextState(next);
  };
  const layout = layoutFor(columns, rows, state.checklist.length, overlay === "help" ? 0 : overlay ? 1 : 0);
  const activityRows = layout.twoColumns ? layout.bodyRows : layout.bodyRows - layout.checklistRows;

  const scroll = (delta: number) => setOffsets((o) => ({ ...o, [focus]: Math.max(0, o[focus] + (focus === "scratchpad" ? -delta : delta)) }));
  useInput(
    (input, key) => {
      const overlay = overlayRef.current;
      if (overlay === "help") return setOverlay(null);
      if (overlay === "quit") {
        if (input === "y") onQuit();
        else if (input === "n" || key.escape) setOverlay(null);
        return;
      }
      if (overlay === "steer") {
        if (key.escape) return setOverlay(null);
        const text = steerRef.current;
        if (key.return) {
          if (text.trim()) {
            controls?.steer(text);
            store.notice(`steering queued for the next iteration: ${text.trim()}`, "you");
          }
          setSteerText("");
          return setOverlay(null);
        }
        if (key.backspace || key.delete) return setSteerText(text.slice(0, -1));
        if (!key.ctrl && !key.meta && input) setSteerText(text + input.replace(/[\r\n]/g, ""));
        return;
      }
      if (key.ctrl && input === "c") return controls ? controls.interrupt() : onQuit();
      if (input === "q") return controls ? setOverlay("quit") : onQuit();
      if (input === "?") return setOverlay("help");
      if (key.tab) return setFocus((f) => FOCUS_ORDER[(FOCUS_ORDER.indexOf(f) + 1) % FOCUS_ORDER.length]!);
      if (key.upArrow) return scroll(1);
      if (key.downArrow) return scroll(-1);
      if (key.pageUp) return scroll(Math.max(1, activityRows - 2));
      if (key.pageDown) return scroll(-Math.max(1, activityRows - 2));
      if (key.home) return setOffsets((o) => ({ ...o, [focus]: focus === "scratchpad" ? 0 : Number.MAX_SAFE_INTEGER }));
      if (key.end) return setOffsets((o) => ({ ...o, [focus]: focus === "scratchpad" ? Number.MAX_SAFE_INTEGER : 0 }));
      if (input === "[" || input === "]") {
        setFocus("activity");
        return setOffsets((o) => ({ ...o, activity: jumpIteration(state, activityRows - 1, o.activity, input === "[" ? -1 : 1) }));
      }
      if (!controls) return;
      if (input === ":") return setOverlay("steer");
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

  const side = (
    <Box flexDirection="column" width={layout.sideWidth}>
      <ChecklistPane state={state} width={layout.sideWidth} height={layout.checklistRows} focused={focus === "checklist"} offset={offsets.checklist} />
      {layout.twoColumns ? (
        <ScratchpadPane state={state} width={layout.sideWidth} height={layout.bodyRows - layout.checklistRows} focused={focus === "scratchpad"} offset={offsets.scratchpad} />
      ) : null}
    </Box>
  );
  const narrowMain =
    focus === "scratchpad" ? (
      <ScratchpadPane state={state} width={columns} height={activityRows} focused offset={offsets.scratchpad} />
    ) : (
      <ActivityPane state={state} width={columns} height={activityRows} focused={focus === "activity"} offset={offsets.activity} />
    );
  return (
    <Box flexDirection="column" width={columns}>
      <Header state={state} width={columns} now={now} mode={controls ? "run" : "watch"} />
      <ContextBar state={state} width={columns} />
      <HatTimeline state={state} width={columns} />
      {overlay === "help" ? (
        <HelpOverlay controls={Boolean(controls)} width={columns} />
      ) : layout.twoColumns ? (
        <Box height={layout.bodyRows}>
          {side}
          <Box width={1} />
          <ActivityPane state={state} width={layout.mainWidth} height={layout.bodyRows} focused={focus === "activity"} offset={offsets.activity} />
        </Box>
      ) : (
        <Box flexDirection="column" height={layout.bodyRows}>
          {side}
          {narrowMain}
        </Box>
      )}
      {overlay === "steer" ? <SteerInput text={steerText} /> : null}
      {overlay === "quit" ? <QuitConfirm /> : null}
      <Text color="gray" wrap="truncate-end">
        {footerText(Boolean(controls), columns)}
      </Text>
    </Box>
  );
}
