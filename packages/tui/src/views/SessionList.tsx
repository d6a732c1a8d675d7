import { Box, Text, useStdin } from "ink";
import { useEffect, useRef, useState } from "react";
import { formatCost, shortId } from "@hatloop/core";
import { CostPanel } from "../components/CostPanel.js";
import type { CostFigures } from "../components/cost-lines.js";
import { clean, fit } from "../components/lines.js";
import { SteerInput } from "../components/Overlays.js";
import { col, statusColor, statusMark } from "../components/theme.js";
import type { TuiState } from "../state/types.js";
import {
  cursorIndex,
  INITIAL_LIST,
  reduceList,
  shownRows,
  withDetails,
  withMessage,
  type ListAction,
  type ListEffect,
  type ListState,
} from "./list-keys.js";
import { useTerminalTitle } from "../terminal/title.js";
import { useKeys } from "./use-keys.js";
import { useTerminalSize } from "./use-tui.js";

export type { ListAction, ListState };

export interface ListRow {
  id: string;
  /** A TuiState status, or another the CLI shows (queued). */
  status: string;
  hat: string;
  iteration: string;
  /** Spent, and the cost budget when there is one: "$0.42/$5.00". */
  cost: string;
  updated: string;
  title: string;
  /** A fleet session's worker ("-": none yet); rows carry it when the list holds fleet sessions. */
  worker?: string;
  /** The run is live: Enter watches it; otherwise Enter shows it. */
  live: boolean;
  /** The agent's open question while the session waits for an answer. */
  question?: string | null;
  /** What the cost panel shows ($); absent: the panel says it has no figures. */
  costs?: CostFigures;
}

export type ListChoice = { action: "watch" | "show"; id: string } | null;

/** Where the rows come from: a fixed list, or a loader the home screen calls again every `refreshMs`. */
export interface ListSource {
  load(): Promise<ListRow[]>;
  /** A session's details as plain text, shown in the list (Esc returns). */
  details?(id: string): Promise<string>;
  /** Does `action` to a session, as the CLI's command for it does; the answer is shown under the list. */
  act?(action: ListAction): Promise<{ ok: boolean; message: string }>;
  refreshMs?: number;
}

const FILTERS = ["all", "running", "waiting", "queued", "paused", "completed", "failed", "stopped", "interrupted"] as const;

const VERB: Record<ListAction["kind"], string> = {
  stop: "pausing",
  resume: "resuming",
  remove: "removing",
  answer: "answering",
  "raise-budget": "raising the budget of",
};

/**
 * The home screen (`hatloop`, `hatloop ls` on a terminal): every session, local and fleet, live,
 * those waiting for an answer first. Act on the selected one (answer, pause, resume, budget,
 * remove), open it (Enter: watch a live one, q there comes back; show a finished one in place), or
 * read its cost panel ($). `initial`: the state to come back to (filter, selection) after a watch.
 */
export function SessionList({
  rows: fixed,
  source,
  onChoose,
  initial,
  size,
}: {
  rows?: ListRow[];
  source?: ListSource;
  onChoose: (choice: ListChoice, state: ListState) => void;
  initial?: ListState;
  size?: { columns: number; rows: number };
}) {
  const [rows, setRows] = useState<ListRow[]>(fixed ?? []);
  const [loaded, setLoaded] = useState(Boolean(fixed));
  // Several keys can arrive in one read, faster than React renders: the list's state lives in a ref
  // that each key moves at once (reduceList); the tick only asks for a render.
  const listRef = useRef<ListState>({ ...(initial ?? INITIAL_LIST), mode: null, details: null });
  const [tick, setTick] = useState(0);
  const { columns, rows: terminalRows } = useTerminalSize(size);
  const height = Math.max(6, terminalRows - 1);
  const { isRawModeSupported } = useStdin();
  const rerender = () => setTick((t) => t + 1);
  const refreshRef = useRef<() => void>(() => {});
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
    refreshRef.current = refresh;
    refresh();
    const timer = setInterval(refresh, source.refreshMs ?? 2_000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [source]);
  useTerminalTitle(homeTitle(rows));
  const list = listRef.current;
  const { filter, details, mode, message } = list;
  // Rows the title, the column names, the message, the prompt and the footer leave.
  const visible = Math.max(3, height - 5);
  const context = { rows, filters: FILTERS, visible, canShowDetails: source?.details !== undefined, canAct: source?.act !== undefined };
  const shown = shownRows(list, context);
  const index = cursorIndex(list, shown);
  // The cursor stays on the session it shows, also when a refresh moves it (a waiting one answered
  // goes down the list): an action must act on the row the user saw selected.
  if (shown[index] && (list.selectedId !== shown[index].id || list.cursor !== index))
    listRef.current = { ...list, selectedId: shown[index].id, cursor: index };
  const perform = (effect: ListEffect) => {
    if (effect.type === "quit") return onChoose(null, listRef.current);
    if (effect.type === "choose") return onChoose({ action: effect.action, id: effect.id }, listRef.current);
    if (effect.type === "act") {
      const { action } = effect;
      listRef.current = withMessage(listRef.current, true, `${VERB[action.kind]} session ${shortId(action.id)}…`);
      return void source?.act?.(action).then(
        ({ ok, message: said }) => {
          listRef.current = withMessage(listRef.current, ok, said);
          refreshRef.current();
          rerender();
        },
        (error: unknown) => {
          listRef.current = withMessage(listRef.current, false, error instanceof Error ? error.message : String(error));
          rerender();
        },
      );
    }
    void source?.details?.(effect.id).then(
      (text) => {
        listRef.current = withDetails(listRef.current, effect.id, text);
        rerender();
      },
      () => {},
    );
  };
  useKeys(({ input, key }) => {
    const next = reduceList(listRef.current, input, key, context);
    listRef.current = next.state;
    rerender();
    next.effects.forEach(perform);
  }, isRawModeSupported === true);
  void tick;
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
  const prompt =
    mode?.type === "prompt" ? (
      <SteerInput
        draft={mode.draft}
        width={columns}
        prompt={mode.action === "answer" ? `answer ${shortId(mode.id)}> ` : `more cost budget for ${shortId(mode.id)}, $ `}
      />
    ) : mode?.type === "confirm-remove" ? (
      <Text color={col("yellow")} bold wrap="truncate-end">
        {fit(`Remove session ${shortId(mode.id)}: its worktree, its stored rows, and its branch unless unmerged? y / n`, columns)}
      </Text>
    ) : null;
  const said = message ? (
    <Text color={col(message.ok ? "green" : "red")} bold={!message.ok} wrap="truncate-end">
      {fit(`${message.ok ? "" : "✗ "}${message.text}`, columns)}
    </Text>
  ) : null;
  if (mode?.type === "cost" || (mode?.type === "prompt" && mode.back === "cost")) {
    const row = rows.find((r) => r.id === mode.id);
    return (
      <Box flexDirection="column" height={height} overflow="hidden">
        {row?.costs ? (
          <CostPanel sessionId={mode.id} figures={row.costs} width={columns} height={height - 3} />
        ) : (
          <Text>{fit(`session ${shortId(mode.id)}: no cost figures`, columns)}</Text>
        )}
        <Box flexGrow={1} />
        {said}
        {prompt}
        <Text color={col("gray")}>{fit(`${context.canAct ? "+ raise the budget  " : ""}any other key back to the list`, columns)}</Text>
      </Box>
    );
  }
  // Rows a waiting session's question takes under it.
  const questionRows = (r: ListRow) => (r.status === "waiting" && r.question ? 1 : 0);
  let top = Math.min(index, Math.max(0, shown.length - 1));
  for (let used = 1 + questionRows(shown[top] ?? ({} as ListRow)); top > 0; top--) {
    const more = 1 + questionRows(shown[top - 1]!);
    if (used + more > visible) break;
    used += more;
  }
  // A WORKER column, as `ls --plain` has, when the list holds fleet sessions.
  const workerWidth = rows.some((r) => r.worker !== undefined) ? Math.min(16, Math.max(6, ...rows.map((r) => r.worker?.length ?? 0))) : 0;
  const worker = (name: string) => (workerWidth ? `${clean(name).slice(0, workerWidth).padEnd(workerWidth)} ` : "");
  const costWidth = Math.max(11, ...rows.map((r) => r.cost.length));
  const line = (r: ListRow) =>
    `${shortId(r.id)}  ${`${(statusMark as Record<string, string | undefined>)[r.status] ?? " "} ${String(r.status)}`.padEnd(13)} ${r.hat.padEnd(9)} ${r.iteration.padEnd(7)} ${r.cost.padEnd(costWidth)} ${r.updated.padEnd(9)} ${worker(r.worker ?? "-")}${clean(r.title)}`;
  const waiting = rows.filter((r) => r.status === "waiting").length;
  const counts = `${shown.length} of ${rows.length} session${rows.length === 1 ? "" : "s"}${waiting ? ` · ${waiting} waiting` : ""} · filter: ${FILTERS[filter]}${source ? " · live" : ""}`;
  const keys = keyLine(
    context.canAct
      ? ["Enter open", "a answer", "p pause", "r resume", "b budget", "$ cost", "d remove", "f filter", "q quit"]
      : ["Enter watch (live) or show", "w watch", "s show", "$ cost", "f filter", "q quit"],
    columns,
  );
  const body: React.ReactNode[] = [];
  let used = 0;
  for (let i = top; i < shown.length && used < visible; i++) {
    const r = shown[i]!;
    const selected = i === index;
    body.push(
      <Text key={r.id} inverse={selected} bold={selected} color={col(statusColor[r.status as TuiState["status"]])} wrap="truncate-end">
        {fit(line(r), columns)}
      </Text>,
    );
    used++;
    if (questionRows(r) && used < visible) {
      body.push(
        <Text key={`${r.id}?`} wrap="truncate-end">
          <Text color={col("magentaBright")} bold>
            {"    ? "}
          </Text>
          {fit(clean(r.question ?? "").replace(/\s+/g, " "), columns - 6)}
        </Text>,
      );
      used++;
    }
  }
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold inverse>
        {fit(` hatloop · ${counts} `, columns)}
      </Text>
      <Text bold>
        {fit(`ID        STATUS        HAT       ITER    ${"COST/BUDGET".padEnd(costWidth)} UPDATED   ${worker("WORKER")}TASK`, columns)}
      </Text>
      {shown.length === 0 ? (
        <Text color={col("gray")}>
          {fit(!loaded ? "(loading…)" : FILTERS[filter] === "all" ? "(no sessions)" : `(no ${FILTERS[filter]} sessions)`, columns)}
        </Text>
      ) : null}
      {body}
      <Box flexGrow={1} />
      {said}
      {prompt}
      <Text color={col("gray")}>{fit(keys, columns)}</Text>
    </Box>
  );
}

/** The terminal's title on the home screen: what needs the user first, then what runs and what it cost. */
function homeTitle(rows: ListRow[]): string {
  const count = (status: string) => rows.filter((r) => r.status === status).length;
  const spent = rows.reduce((sum, r) => sum + (r.costs?.costUsd ?? 0), 0);
  const waiting = count("waiting");
  return `hatloop: ${waiting ? `${waiting} waiting · ` : ""}${count("running")} running · ${rows.length} sessions · ${formatCost(spent)}`;
}

/** The keys, two spaces apart when they fit, else one. */
function keyLine(keys: string[], columns: number): string {
  const wide = keys.join("  ");
  return wide.length <= columns ? wide : keys.join(" ");
}
