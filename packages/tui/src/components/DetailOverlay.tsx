import { Box, Text } from "ink";
import { clampTop, detailLines, type DetailView } from "./detail-lines.js";
import { col } from "./theme.js";

// An activity entry opened whole, over the body: a title line saying what it is and where the view
// is in it, then the content wrapped to the width (a diff in its colours), scrolled from the top.

export function DetailOverlay({ view, width, height }: { view: DetailView; width: number; height: number }) {
  const lines = detailLines(view.text, width);
  const rows = Math.max(1, height - (view.note ? 2 : 1));
  const top = clampTop(view, width, height);
  const shown = lines.slice(top, top + rows);
  const diff = /^(diff --git |@@ |--- a\/)/m.test(view.text);
  const where = lines.length > rows ? ` · lines ${top + 1}-${top + shown.length} of ${lines.length}` : "";
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text inverse bold wrap="truncate-end">
        {` ${view.title}${where} `}
      </Text>
      {view.note ? (
        <Text color={col("gray")} wrap="truncate-end">
          {view.note}
        </Text>
      ) : null}
      {shown.map((line, i) => (
        <Text key={top + i} color={col(diff ? diffColor(line) : undefined)} wrap="truncate-end">
          {line || " "}
        </Text>
      ))}
    </Box>
  );
}

function diffColor(line: string): string | undefined {
  if (line.startsWith("+++") || line.startsWith("---")) return "white";
  if (line.startsWith("+")) return "green";
  if (line.startsWith("-")) return "red";
  if (line.startsWith("@@")) return "cyan";
  return undefined;
}
