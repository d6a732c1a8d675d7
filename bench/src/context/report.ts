import type { Tally } from "./facts-score.js";
import type { Group, Row } from "./aggregate.js";

// Markdown tables for the context bench. The best value of each column among the viable strategies
// (no call over the window, no invalid request) is in bold, and under each table a line says where
// another strategy beats hatloop, so a loss is never hidden.

interface Column {
  header: string;
  value: (r: Row) => number | null;
  format: (r: Row) => string;
  better: "low" | "high" | null;
}

const pct = (t: Tally | null, p: keyof Tally): number | null => (t && t[p].total ? t[p].present / t[p].total : null);
const frac = (t: Tally | null, p: keyof Tally): string => (t && t[p].total ? `${t[p].present}/${t[p].total}` : "–");
const ratio = (pair: [number, number] | null): number | null => (pair && pair[1] ? pair[0] / pair[1] : null);

const SIZE_COLUMNS: Column[] = [
  { header: "peak context (% of window)", value: (r) => r.peakPct, format: (r) => `${r.peakPct}%`, better: "low" },
  { header: "calls over window", value: (r) => r.callsOverWindow, format: (r) => `${r.callsOverWindow}/${r.calls}`, better: "low" },
  { header: "input tokens (M)", value: (r) => r.inputTokens, format: (r) => (r.inputTokens / 1e6).toFixed(2), better: "low" },
  { header: "cost, cached ($)", value: (r) => r.costUsd, format: (r) => r.costUsd.toFixed(2), better: "low" },
  { header: "cache-read share", value: (r) => r.cacheReadShare, format: (r) => `${(r.cacheReadShare * 100).toFixed(1)}%`, better: "high" },
  {
    header: "invalid requests (pairing problems)",
    value: (r) => r.invalidRequests,
    format: (r) => `${r.invalidRequests} (${r.problems})`,
    better: "low",
  },
  { header: "CPU ms/call", value: (r) => r.cpuMsPerCall, format: (r) => r.cpuMsPerCall.toFixed(2), better: null },
];

const CONTINUITY_COLUMNS: Column[] = [
  ...(["P0", "P1", "P2"] as const).map((p): Column => ({
    header: `live ${p}`,
    value: (r) => pct(r.live, p),
    format: (r) => frac(r.live, p),
    better: "high",
  })),
  { header: "live stale", value: (r) => r.staleLive, format: (r) => String(r.staleLive ?? "–"), better: "low" },
  ...(["P0", "P1", "P2"] as const).map((p): Column => ({
    header: `handoff ${p}`,
    value: (r) => pct(r.handoff, p),
    format: (r) => frac(r.handoff, p),
    better: "high",
  })),
  { header: "handoff stale", value: (r) => r.staleHandoff, format: (r) => String(r.staleHandoff ?? "–"), better: "low" },
  { header: "paths live", value: (r) => ratio(r.pathsLive), format: (r) => `${r.pathsLive[0]}/${r.pathsLive[1]}`, better: "high" },
  {
    header: "paths in handoff",
    value: (r) => ratio(r.pathsHandoff),
    format: (r) => `${r.pathsHandoff[0]}/${r.pathsHandoff[1]}`,
    better: "high",
  },
  { header: "handoff tokens", value: (r) => r.handoffTokens, format: (r) => String(r.handoffTokens), better: "low" },
];

function viable(r: Row): boolean {
  return r.callsOverWindow === 0 && r.invalidRequests === 0;
}

export function renderGroup(group: Group): string {
  const facts = group.rows.some((r) => r.live !== null);
  const parts = [
    `### ${group.title}`,
    `Window ${(group.window / 1000).toFixed(0)}k tokens; input${group.inputs.length > 1 ? "s" : ""}: ${group.inputs.join(", ")}.`,
    table(group.rows, SIZE_COLUMNS),
    table(
      group.rows,
      facts ? CONTINUITY_COLUMNS : CONTINUITY_COLUMNS.filter((c) => c.header.startsWith("paths") || c.header === "handoff tokens"),
    ),
  ];
  const full = group.rows.find((r) => r.fullHandoffTokens !== null);
  if (full) {
    const f = full.fullHandoff;
    parts.push(
      `${full.strategy}'s full handoff (\`hatloop handoff\`, ${full.fullHandoffTokens} tokens): ${f ? `P0 ${frac(f, "P0")}, P1 ${frac(f, "P1")}, P2 ${frac(f, "P2")}, ` : ""}paths ${full.pathsFullHandoff?.[0]}/${full.pathsFullHandoff?.[1]}.`,
    );
  }
  const flagged = group.rows
    .filter((r) => !viable(r))
    .map(
      (r) =>
        `${r.strategy} (${r.callsOverWindow ? `${r.callsOverWindow} calls over the window` : `${r.invalidRequests} invalid requests`})`,
    );
  if (flagged.length) parts.push(`Not viable, excluded from "best" (†): ${flagged.join("; ")}.`);
  parts.push(beatenLine(group.rows, [...SIZE_COLUMNS, ...CONTINUITY_COLUMNS]));
  return parts.join("\n\n");
}

function best(rows: readonly Row[], c: Column): number | null {
  const values = rows
    .filter(viable)
    .map(c.value)
    .filter((v): v is number => v !== null);
  if (!c.better || values.length === 0) return null;
  return c.better === "low" ? Math.min(...values) : Math.max(...values);
}

function table(rows: readonly Row[], columns: readonly Column[]): string {
  const head = `| strategy | ${columns.map((c) => c.header).join(" | ")} |`;
  const rule = `|---|${columns.map(() => "---:").join("|")}|`;
  const bests = columns.map((c) => best(rows, c));
  const body = rows.map((r) => {
    const cells = columns.map((c, k) => {
      const text = c.format(r);
      return viable(r) && bests[k] !== null && c.value(r) === bests[k] ? `**${text}**` : text;
    });
    return `| ${r.strategy}${viable(r) ? "" : " †"} | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...body].join("\n");
}

/** "hatloop is beaten on: cost (summarize-at-threshold 29.10 vs 48.40); ..." or that it is not. */
function beatenLine(rows: readonly Row[], columns: readonly Column[], name = "hatloop"): string {
  const me = rows.find((r) => r.strategy === name);
  if (!me) return "";
  const losses = columns.flatMap((c) => {
    const b = best(rows, c);
    const mine = c.value(me);
    if (b === null || mine === null || mine === b) return [];
    const worse = c.better === "low" ? mine > b : mine < b;
    if (!worse) return [];
    const winners = rows.filter((r) => viable(r) && c.value(r) === b).map((r) => `${r.strategy} ${c.format(r)}`);
    return [`${c.header} (${winners.join(", ")} vs ${c.format(me)})`];
  });
  return losses.length
    ? `**Where another viable strategy beats ${name}:** ${losses.join("; ")}.`
    : `No viable strategy beats ${name} on any column.`;
}
