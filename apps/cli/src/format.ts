export { formatCost, formatDuration, formatTokens, shortId } from "@hatloop/core";

// Small formatters for the CLI's own tables (numbers are formatted by @hatloop/core).

export function formatAge(date: Date, now = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** Left-aligned columns; the last column is not padded and may be truncated to `width`. */
export function table(rows: string[][], width = process.stdout.columns || 120): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? "").length)));
  return rows
    .map((row) => {
      const line = row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ");
      return line.length > width ? `${line.slice(0, width - 1)}…` : line;
    })
    .join("\n");
}
