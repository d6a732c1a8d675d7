import { Box, Text } from "ink";
import type { TuiState } from "../state/types.js";
import { changesOf, diffTone } from "./diff-files.js";
import { checkpointOf, diffLines, diffPane, filesOf, listWidth, type FilesView } from "./files-view.js";
import { fit } from "./lines.js";
import { col } from "./theme.js";

// The files view over the body, as lazygit lays it out: the checkpoint's changed files on the left
// (the selected one inverse, with its +added -removed), the selected file's diff on the right in
// its colours (NO_COLOR: the +/- say it), wrapped, never cut.

const TONE_COLOR = { add: "green", remove: "red", hunk: "cyan", head: undefined } as const;

export function FilesOverlay({ state, view, width, height }: { state: TuiState; view: FilesView; width: number; height: number }) {
  const checkpoint = checkpointOf(state, view.back);
  const count = state.checkpoints.length;
  const where = checkpoint
    ? ` · checkpoint #${checkpoint.seq} (${checkpoint.reason}, iteration ${checkpoint.iteration}) · ${count - view.back}/${count}`
    : "";
  const subject = view.loaded?.text ? ` · ${changesOf(view.loaded.text).subject}` : "";
  const files = filesOf(view);
  const left = listWidth(width);
  const pane = diffPane(width, height);
  const file = files[view.file];
  const lines = diffLines(file, pane.width).slice(view.top, view.top + pane.rows);
  const message = !checkpoint
    ? "no checkpoint has committed changes yet"
    : !view.loaded
      ? "reading the diff from the worktree…"
      : view.loaded.error
        ? `the diff cannot be read: ${view.loaded.error}`
        : files.length === 0
          ? "this checkpoint changed no file"
          : null;
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text inverse bold wrap="truncate-end">
        {fit(` Files${where}${subject} `, width)}
      </Text>
      {message ? (
        <Text color={col("gray")}>{message}</Text>
      ) : (
        <Box height={height - 1}>
          <Box flexDirection="column" width={left} overflowY="hidden">
            {visibleFiles(files.length, view.file, height - 1).map((i) => {
              const f = files[i]!;
              const counts = ` +${f.added} -${f.removed}`;
              return (
                <Text key={f.path} inverse={i === view.file} wrap="truncate-end">
                  {fit(f.path, left - counts.length)}
                  <Text color={col("green")}>{` +${f.added}`}</Text>
                  <Text color={col("red")}>{` -${f.removed}`}</Text>
                </Text>
              );
            })}
          </Box>
          <Box width={1} />
          <Box flexDirection="column" width={pane.width} overflowY="hidden">
            {lines.map((line, i) => {
              const tone = diffTone(line.source);
              return (
                <Text key={view.top + i} color={col(tone ? TONE_COLOR[tone] : undefined)} bold={tone === "head"} wrap="truncate-end">
                  {line.text || " "}
                </Text>
              );
            })}
          </Box>
        </Box>
      )}
    </Box>
  );
}

/** The indexes of the files that show: a window of `rows` that keeps the selected one in view. */
function visibleFiles(count: number, selected: number, rows: number): number[] {
  const start = Math.max(0, Math.min(selected - rows + 1, count - rows));
  return Array.from({ length: Math.min(count, rows) }, (_, i) => Math.max(0, start) + i).filter((i) => i < count);
}
