import { Box, Text, useInput, useStdin } from "ink";
import { useEffect, useRef, useState } from "react";
import { shortId } from "@hatloop/core";
import { clean, fit } from "../components/lines.js";
import { col, statusColor, statusMark } from "../components/theme.js";
import type { TuiState } from "../state/types.js";
import { useTerminalSize } from "./use-tui.js";

export interface ListRow {
  id: string;
  /** A TuiState status, or another the CLI shows (queued). */
  status: string;
  hat: string;
  iteration: string;
  cost: string;
  updated: string;
  title: string;
  /** A fleet session's worker ("-": none yet); rows carry it when the list holds fleet sessions. */
  worker?: string;
  /** The run is live: Enter watches it; otherwise Enter shows it. */
  live: boolean;
}

export type ListChoice = { action: "watch" | "show"; id: string } | null;

/** Where the rows come from: a fixed list, or a loader the dashboard calls again every `refreshMs`. */
export interface ListSource {
  load(): Promise<ListRow[]>;
  /** A session's details as plain text, shown in the list (Esc returns). */
  details?(id: string): Promise<string>;
  refreshMs?: number;
}

const FILTERS = ["all", "running", "waiting", "queued", "paused", "completed", "failed", "stopped", "interrupted"] as const;

/**
 * `hatloop ls` on a terminal, a live dashboard: it refreshes, f filters by status, arrows move,
 * Enter watches a live session (q there comes back here) or shows a finished one in place, q leaves.
 */
export function SessionList({
  rows: fixed,
  source,
  onChoose,
  size,
}: {
  rows?: ListRow[];
  source?: ListSource;
  onChoose: (choice: ListChoice) => void;
  size?: { columns: number; rows: number };
}) {
  const [rows, setRows] = useState<ListRow[]>(fixed ?? []);
  const [loaded, setLoaded] = useState(Boolean(fixed));
  const [cursor, setCursor] = useState(0);
  const [filter, setFilter] = useState(0);
  const [details, setDetails] = useState<{ id: string; text: string; top: number } | null>(null);
  const { columns, rows: terminalRows } = useTerminalSize(size);
  const height = Math.max(6, terminalRows - 1);
  const { isRawModeSupported } = useStdin();
  const selected = useRef<string | null>(null);
  useEffect(() => {
    if (!source) return;
    let stopped = false;
    const refresh = () =>
      void source.load().then(
        (r) => {
          if (stopped) return;
          setRows(r);
          setLoaded(true);
        },
        () => {},
      );
    refresh();
    const timer = setInterval(refresh, source.refreshMs ?? 2_000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [source]);
  const shown = FILTERS[filter] === "all" ? rows : rows.filter((r) => r.status === FILTERS[filter]);
  // The cursor stays on the same session when rows refresh or the filter changes.
  const at = selected.current ? shown.findIndex((r) => r.id === selected.current) : -1;
  const index = at >= 0 ? at : Math.min(cursor, Math.max(0, shown.length - 1));
  const move = (next: number) => {
    const clamped = Math.max(0, Math.min(shown.length - 1, next));
    selected.current = shown[clamped]?.id ?? null;
    setCursor(clamped);
  };
  const visible = Math.max(3, height - 3);
  const top = Math.min(Math.max(0, index - visible + 1), Math.max(0, shown.length - visible));
  useInput(
    (input, key) => {
      if (details) {
        if (key.ctrl && input === "c") return onChoose(null);
        if (key.upArrow) return setDetails({ ...details, top: Math.max(0, details.top - 1) });
        if (key.downArrow) return setDetails({ ...details, top: details.top + 1 });
        if (key.pageDown) return setDetails({ ...details, top: details.top + visible - 1 });
        if (key.pageUp) return setDetails({ ...details, top: Math.max(0, details.top - visible + 1) });
        return setDetails(null);
      }
      if (input === "q" || key.escape || (key.ctrl && input === "c")) return onChoose(null);
      if (key.upArrow || input === "k") return move(index - 1);
      if (key.downArrow || input === "j") return move(index + 1);
      if (input === "f") return setFilter((f) => (f + 1) % FILTERS.length);
      const row = shown[index];
      if (!row) return;
      const show = () => {
        if (!source?.details) return onChoose({ action: "show", id: row.id });
        void source.details(row.id).then(
          (text) => setDetails({ id: row.id, text, top: 0 }),
          () => {},
        );
      };
      if (key.return) return row.live ? onChoose({ action: "watch", id: row.id }) : show();
      if (input === "w") return onChoose({ action: "watch", id: row.id });
      if (input === "s") return show();
    },
    { isActive: isRawModeSupported === true },
  );
  if (details) {
    const lines = details.text.split("\n");
    const first = Math.min(details.top, Math.max(0, lines.length - visible));
    return (
      <Box flexDirection="column" height={height} overflow="hidden">
        <Text bold inverse>
          {fit(` session ${shortId(details.id)} `, columns)}
        </Text>
        {lines.slice(first, first + visible).map((l, i) => (
          <Text key={i} wrap="truncate-end">
            {fit(l, columns)}
          </Text>
        ))}
        <Box flexGrow={1} />
        <Text color={col("gray")}>{fit("↑↓ PgUp PgDn scroll  any other key back to the list  Ctrl-C quit", columns)}</Text>
      </Box>
    );
  }
  // A WORKER column, as `ls --plain` has, when the list holds fleet sessions.
  const workerWidth = rows.some((r) => r.worker !== undefined) ? Math.min(16, Math.max(6, ...rows.map((r) => r.worker?.length ?? 0))) : 0;
  const worker = (name: string) => (workerWidth ? `${clean(name).slice(0, workerWidth).padEnd(workerWidth)} ` : "");
  const line = (r: ListRow) =>
    `${shortId(r.id)}  ${`${(statusMark as Record<string, string | undefined>)[r.status] ?? " "} ${String(r.status)}`.padEnd(13)} ${r.hat.padEnd(9)} ${r.iteration.padEnd(7)} ${r.cost.padEnd(7)} ${r.updated.padEnd(9)} ${worker(r.worker ?? "-")}${clean(r.title)}`;
  const counts = `${shown.length} of ${rows.length} session${rows.length === 1 ? "" : "s"} · filter: ${FILTERS[filter]}${source ? " · live" : ""}`;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold>{fit(`ID        STATUS        HAT       ITER    COST    UPDATED   ${worker("WORKER")}TASK`, columns)}</Text>
      {shown.length === 0 ? (
        <Text color={col("gray")}>
          {fit(!loaded ? "(loading…)" : FILTERS[filter] === "all" ? "(no sessions)" : `(no ${FILTERS[filter]} sessions)`, columns)}
        </Text>
      ) : null}
      {shown.slice(top, top + visible).map((r, i) => (
        <Text
          key={r.id}
          inverse={top + i === index}
          bold={top + i === index}
          color={col(statusColor[r.status as TuiState["status"]])}
          wrap="truncate-end"
        >
          {fit(line(r), columns)}
        </Text>
      ))}
      <Box flexGrow={1} />
      <Text color={col("gray")}>{fit(`${counts}   ↑↓ move  Enter watch (live) or show  w watch  s show  f filter  q quit`, columns)}</Text>
    </Box>
  );
}
