import { Box, Text, useInput, useStdin } from "ink";
import { useState } from "react";
import { fit } from "../components/lines.js";
import { statusColor } from "../components/theme.js";
import type { TuiState } from "../state/types.js";
import { useTerminalSize } from "./use-tui.js";

export interface ListRow {
  id: string;
  status: TuiState["status"] | string;
  hat: string;
  iteration: string;
  cost: string;
  updated: string;
  title: string;
  /** The run is live: Enter watches it; otherwise Enter shows it. */
  live: boolean;
}

export type ListChoice = { action: "watch" | "show"; id: string } | null;

/** `hatloop ls` on a terminal: arrows to move, Enter to watch (live) or show, w to watch, q to leave. */
export function SessionList({ rows, onChoose, size }: { rows: ListRow[]; onChoose: (choice: ListChoice) => void; size?: { columns: number; rows: number } }) {
  const [cursor, setCursor] = useState(0);
  const { columns, rows: height } = useTerminalSize(size);
  const { isRawModeSupported } = useStdin();
  const visible = Math.max(3, height - 4);
  const top = Math.min(Math.max(0, cursor - visible + 1), Math.max(0, rows.length - visible));
  useInput(
    (input, key) => {
      if (input === "q" || key.escape || (key.ctrl && input === "c")) return onChoose(null);
      if (key.upArrow || input === "k") return setCursor((c) => Math.max(0, c - 1));
      if (key.downArrow || input === "j") return setCursor((c) => Math.min(rows.length - 1, c + 1));
      const row = rows[cursor];
      if (!row) return;
      if (key.return) return onChoose({ action: row.live ? "watch" : "show", id: row.id });
      if (input === "w") return onChoose({ action: "watch", id: row.id });
      if (input === "s") return onChoose({ action: "show", id: row.id });
    },
    { isActive: isRawModeSupported === true },
  );
  const line = (r: ListRow) => `${r.id.slice(0, 8)}  ${String(r.status).padEnd(11)} ${r.hat.padEnd(9)} ${r.iteration.padEnd(7)} ${r.cost.padEnd(7)} ${r.updated.padEnd(9)} ${r.title}`;
  return (
    <Box flexDirection="column">
      <Text bold>{fit("ID        STATUS      HAT       ITER    COST    UPDATED   TASK", columns)}</Text>
      {rows.slice(top, top + visible).map((r, i) => (
        <Text key={r.id} inverse={top + i === cursor} color={statusColor[r.status as TuiState["status"]]} wrap="truncate-end">
          {fit(line(r), columns)}
        </Text>
      ))}
      <Text color="gray">{fit("↑↓ move  Enter watch (running) or show  w watch  s show  q quit", columns)}</Text>
    </Box>
  );
}
