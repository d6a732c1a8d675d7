import { Text } from "ink";
import { visibleLines, type PaneSize } from "./activity-lines.js";
import { Pane, type PaneProps } from "./Pane.js";
import { highlight, type Span, type SpanStyle } from "./styled-lines.js";
import { col, monochrome, toneColor, toneMark } from "./theme.js";

/** What the selection mark is on: an entry's id, or the response being streamed. */
export type Selected = number | "stream";

/**
 * The newest activity that fits, `offset` lines up from the bottom (already clamped by the view),
 * wrapped and with the model's Markdown rendered; the lines of the `selected` entry (what Enter
 * opens) are marked `▸`, in every colour mode, and a search's `query` is marked where it shows.
 */
export function ActivityPane({
  state,
  width,
  height,
  focused,
  offset,
  selected = null,
  folded,
  query = null,
  doing = null,
}: PaneProps & { selected?: Selected | null; folded?: PaneSize["folded"]; query?: string | null; doing?: string | null }) {
  const rows = Math.max(0, height - 1);
  const lines = visibleLines(state, { rows, width, folded }, offset);
  const mono = monochrome();
  // What the run is doing, and for how long, rides on the title row: it costs the activity no line.
  const title = `${offset > 0 ? `Activity (scrolled ${offset} up — End to follow)` : "Activity"}${doing ? ` · ${doing}` : ""}`;
  return (
    <Pane title={title} focused={focused} width={width} height={height}>
      {lines.length === 0 ? <Text color={col("gray")}>(waiting for the first event)</Text> : null}
      {lines.map((line) => {
        const marked = selected !== null && (line.entry ?? "stream") === selected;
        const mark = mono && line.key.endsWith(":0") ? (toneMark[line.tone] ?? "") : "";
        const head = marked ? (line.text.startsWith(" ") ? "▸" : "▸ ") : mark;
        // The mark takes the line's first column (an indent's space) or goes before it.
        const body = marked && line.text.startsWith(" ") ? { ...line, text: line.text.slice(1), spans: trimFirst(line.spans) } : line;
        const spans = highlight(body, query);
        return (
          <Text
            key={line.key}
            color={col(toneColor[line.tone])}
            bold={marked || line.tone === "iteration" || (mono && line.tone === "error")}
            wrap="truncate-end"
          >
            {/* One string when the line is plain: Ink measures a single text node fastest. */}
            {spans ? [head, ...spans.map((span, i) => <StyledSpan key={i} span={span} />)] : head + body.text}
          </Text>
        );
      })}
    </Pane>
  );
}

function trimFirst(spans: Span[] | null): Span[] | null {
  if (!spans?.length) return spans;
  return [{ ...spans[0]!, text: spans[0]!.text.slice(1) }, ...spans.slice(1)];
}

const SPAN_STYLE: Record<SpanStyle, { color?: string; bold?: boolean; inverse?: boolean; dimColor?: boolean }> = {
  bold: { bold: true },
  heading: { bold: true, color: "cyanBright" },
  code: { color: "yellow" },
  block: { color: "yellow" },
  quote: { color: "gray" },
  match: { inverse: true },
};

function StyledSpan({ span }: { span: Span }) {
  if (!span.style) return span.text;
  const { color, ...rest } = SPAN_STYLE[span.style];
  return (
    <Text color={col(color)} {...rest}>
      {span.text}
    </Text>
  );
}
