import { Box, Text, useStdin } from "ink";
import { useEffect, useRef, useState } from "react";
import { shortId } from "@hatloop/core";
import { clean, fit } from "../components/lines.js";
import { col, statusColor, statusMark } from "../components/theme.js";
import type { TuiState } from "../state/types.js";
import { cursorIndex, INITIAL_LIST, reduceList, shownRows, withDetails, type ListEffect, type ListState } from "./list-keys.js";
import { useKeys } from "./use-keys.js";
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
  // Several keys can arrive in one read, faster than React renders: the list's state lives in a ref
  // that each key moves at once (reduceList); the tick only asks for a render.
  const listRef = useRef<ListState>(INITIAL_LIST);
  const [, setTick] = useState(0);
  const { columns, rows: terminalRows } = useTerminalSize(size);
  const height = Math.max(6, terminalRows - 1);
  const { isRawModeSupported } = useStdin();
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
  const visible = Math.max(3, height - 3);
  const context = { rows, filters: FILTERS, visible, canShowDetails: source?.details !== undefined };
  const { filter, details } = listRef.current;
  const shown = shownRows(listRef.current, context);
  const index = cursorIndex(listRef.current, shown);
  const top = Math.min(Math.max(0, index - visible + 1), Math.max(0, shown.length - visible));
  const perform = (effect: ListEffect) => {
    if (effect.type === "quit") return onChoose(null);
    if (effect.type === "choose") return onChoose({ action: effect.action, id: effect.id });
    void source?.details?.(effect.id).then(
      (text) => {
        listRef.current = withDetails(listRef.current, effect.id, text);
        setTick((t) => t + 1);
      },
      () => {},
    );
  };
  useKeys(({ input, key }) => {
    const next = reduceList(listRef.current, input, key, context);
    listRef.current = next.state;
    setTick((t) => t + 1);
    next.effects.forEach(perform);
  }, isRawModeSupported === true);
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
