import { Box, Text } from "ink";
import { commandName, shortId } from "@hatloop/core";
import { KEYS, type KeyHelp } from "./keys.js";
import { fit } from "./lines.js";
import { draftWindow, type Draft } from "./line-editor.js";
import { col } from "./theme.js";

/** The key table; framed when there is room, and never taller than `height` rows. */
/** The rows a line takes wrapped at word boundaries to `width` (as Ink wraps it; a long word is cut). */
function wrappedRows(text: string, width: number): number {
  let rows = 1;
  let column = 0;
  for (const word of text.split(" ")) {
    const needed = column === 0 ? word.length : column + 1 + word.length;
    if (needed <= width) column = needed;
    else {
      rows += column === 0 ? 0 : 1;
      rows += Math.floor(Math.max(0, word.length - 1) / width);
      column = word.length % width || width;
    }
  }
  return rows;
}

/** The width of the help's key column. */
const KEY_COLUMN = 14;

export function HelpOverlay({ controls, width, height }: { controls: boolean; width: number; height: number }) {
  const keys = KEYS.filter((k) => !k.only || k.only === (controls ? "run" : "watch"));
  const boxWidth = Math.min(width, 84);
  // Lines wrap to the box (they were cut at its edge). The frame goes first when all of them would
  // not fit in it; then as many keys as their wrapped rows leave room for.
  const rowsAt = (inner: number) => keys.map((k) => wrappedRows(`${k.keys.padEnd(KEY_COLUMN)} ${k.does}`, Math.max(1, inner)));
  const framedRows = rowsAt(boxWidth - 4);
  const framed = height >= framedRows.reduce((a, b) => a + b, 0) + 4;
  const rows = framed ? framedRows : rowsAt(boxWidth);
  const all = rows.reduce((a, b) => a + b, 0);
  // When not every key fits, one row says how many more there are.
  const room = Math.max(0, height - (framed ? 4 : 2) - (all > height - (framed ? 4 : 2) ? 1 : 0));
  const lines: KeyHelp[] = [];
  let used = 0;
  keys.forEach((k, i) => {
    if (used + rows[i]! > room || lines.length < i) return;
    lines.push(k);
    used += rows[i]!;
  });
  const hidden = keys.length - lines.length;
  if (hidden > 0) used += 1;
  return (
    <Box
      flexDirection="column"
      borderStyle={framed ? "round" : undefined}
      paddingX={framed ? 1 : 0}
      width={boxWidth}
      height={Math.min(height, used + (framed ? 4 : 2))}
      overflow="hidden"
    >
      <Text bold wrap="truncate-end">
        Keys {controls ? "" : "(watching: the loop runs elsewhere)"}
      </Text>
      {lines.map((k) => (
        <Text key={k.keys} wrap="wrap">
          <Text color={col("cyan")} bold>
            {k.keys.padEnd(KEY_COLUMN)}
          </Text>{" "}
          {k.does}
        </Text>
      ))}
      {hidden > 0 ? (
        <Text color={col("gray")} wrap="truncate-end">
          {`+${hidden} more keys on a taller terminal (docs/tui.md lists them all)`}
        </Text>
      ) : null}
      <Text color={col("gray")}>any key closes this help</Text>
    </Box>
  );
}

const HINT = " (Enter sends, Esc discards)";

/** The steering (or answer) draft, scrolled sideways so the cursor (and so the end one types at) is always visible. */
export function SteerInput({ draft, width, prompt }: { draft: Draft; width: number; prompt: string }) {
  const hint = width - prompt.length >= 30 + HINT.length ? HINT : "";
  const { before, at, after } = draftWindow(draft, width - prompt.length - hint.length - 1);
  return (
    <Text wrap="truncate-end">
      <Text color={col("blueBright")} bold>
        {prompt}
      </Text>
      {before}
      <Text inverse>{at}</Text>
      {after}
      <Text color={col("gray")}>{hint}</Text>
    </Text>
  );
}

/** The agent's question, while the run waits for its answer, and how to give it (the question is cut, the way to answer never). */
export function QuestionLine({
  question,
  sessionId,
  controls,
  width,
}: {
  question: string;
  sessionId: string;
  controls: boolean;
  width: number;
}) {
  const how = `  (${controls ? "a answers" : `answer with: ${commandName()} answer ${shortId(sessionId)} "..."`})`;
  return (
    <Text wrap="truncate-end">
      <Text color={col("magentaBright")} bold inverse>
        {" ? "}
      </Text>{" "}
      <Text bold>{fit(question.replace(/\s+/g, " "), width - 4 - how.length)}</Text>
      <Text color={col("gray")}>{how}</Text>
    </Text>
  );
}

export function QuitConfirm() {
  return (
    <Text color={col("yellow")} bold wrap="truncate-end">
      Quit? The loop stops now and pauses with a checkpoint (resume later). y / n
    </Text>
  );
}
