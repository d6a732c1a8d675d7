import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import stripAnsi from "strip-ansi";
import { describe, expect, it } from "vitest";

// patches/ink@6.8.0.patch keeps Ink's line caches across frames and reuses a row's string when the
// same writes reach the row as before (lines that scrolled, or did not change). Every frame drawn
// after many changes must show each row as it is now, colours included. (The expected rows are made
// here, not by another Ink: the caches are shared by every Ink in the process.)

// A frame shows rows made of several writes. Colours written as escape codes in the text: Ink passes them through, whatever colour level the
// test's terminal has.
const palette = ["\u001b[32m", "\u001b[31m", "", "\u001b[1m\u001b[36m"] as const;
const RESET = "\u001b[0m";

function Lines({ lines, width }: { lines: Array<{ text: string; color: string }>; width: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, i) => (
        // A row of two writes: a label that never changes, then the line.
        <Box key={i}>
          <Box flexShrink={0}>
            <Text>{`\u001b[35m${LABEL}${RESET}`}</Text>
          </Box>
          <Text wrap="truncate-end">{`${line.color}${line.text}${RESET}`}</Text>
        </Box>
      ))}
    </Box>
  );
}

/** The view after `step` changes: a window of lines that scrolls, colours that move between them, a streaming last line. */
function view(step: number) {
  const lines = Array.from({ length: 12 }, (_, i) => {
    const n = step + i;
    return { text: `line ${n % 7} ${"·".repeat(n % 5)} wide 漢字 ${n % 3}`, color: palette[(n + step) % palette.length]! };
  });
  lines.push({ text: `streaming ${"word ".repeat(step % 9)}`, color: "" });
  return lines;
}

const LABEL = "▌ iteration ";
const WIDTH = 40;

/** The row a line must make: the label, then the line cut to what is left of the width. */
function expectedRow(text: string): string {
  const room = WIDTH - LABEL.length;
  return `${LABEL}${text.length > room ? `${text.slice(0, room - 1)}…` : text}`.trimEnd();
}

describe("Ink's frames with the caches kept across frames", () => {
  it("show every row as it is now, in its colour, after every change", () => {
    const live = render(<Lines lines={view(0)} width={WIDTH} />);
    for (let step = 1; step < 60; step++) {
      const lines = view(step);
      live.rerender(<Lines lines={lines} width={WIDTH} />);
      const rows = (live.lastFrame() ?? "").split("\n");
      expect(rows.map((row) => stripAnsi(row).trimEnd())).toEqual(lines.map((line) => expectedRow(line.text)));
      lines.forEach((line, i) => {
        if (line.color === palette[0] || line.color === palette[1]) expect(rows[i]).toContain(`${line.color}${line.text.slice(0, 6)}`);
      });
    }
    live.unmount();
  });
});

describe("Ink's rows joined from their writes", () => {
  it("ends a write's styles before the blanks and the write after it, even when the text leaves them open", () => {
    // A line whose own escape codes leave inverse on: the blanks after it must not be inverse.
    const live = render(
      <Box width={20}>
        <Box width={8} flexShrink={0}>
          <Text>{"\u001b[7mab"}</Text>
        </Box>
        <Text>cd</Text>
      </Box>,
    );
    const row = (live.lastFrame() ?? "").split("\n")[0]!;
    expect(stripAnsi(row)).toBe("ab      cd");
    const reset = row.lastIndexOf("\u001b[0m", row.indexOf("cd"));
    expect(reset).toBeGreaterThan(row.indexOf("ab"));
    expect(row.slice(reset + 4, row.indexOf("cd"))).toBe("      ");
    live.unmount();
  });

  it("draws overlapping writes cell by cell, the later one on top", () => {
    const live = render(
      <Box width={12} height={1}>
        <Text>{"abcdefghij"}</Text>
        <Box position="absolute" marginLeft={3}>
          <Text color="red">XY</Text>
        </Box>
      </Box>,
    );
    expect(stripAnsi(live.lastFrame() ?? "")).toBe("abcXYfghij");
    live.unmount();
  });
});
