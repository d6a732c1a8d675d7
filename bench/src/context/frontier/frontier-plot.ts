import type { FrontierPoint, SessionVerdict } from "./frontier.js";
import { peerFrontier } from "./frontier-report.js";

// The cost-continuity frontier as one SVG: a panel per real session, cost (as a multiple of sending
// everything) across, share of needed items kept up; every peer setting a grey dot, the sweeps of
// one peer joined by a line, the peers' frontier dashed, each peer's default ringed, hatloop red.

const PANEL = { w: 380, h: 250 };
const M = { left: 46, right: 12, top: 26, bottom: 34 };
const COLUMNS = 2;
const SWEPT = new Set(["claude-code", "api-compaction", "api-clear-tool-uses", "mask+summary"]);

export function frontierSvg(verdicts: readonly SessionVerdict[]): string {
  const rows = Math.ceil(verdicts.length / COLUMNS);
  const width = COLUMNS * PANEL.w;
  const height = rows * PANEL.h + 50;
  const panels = verdicts.map((v, i) => panel(v, (i % COLUMNS) * PANEL.w, 50 + Math.floor(i / COLUMNS) * PANEL.h));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="10">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="16" font-size="13" font-weight="bold">Cost and continuity on real sessions (pnpm bench context --corpus)</text>`,
    `<text x="10" y="30" fill="#444">x: cost as a multiple of sending everything (raw) · y: share of the items the agent later needed that the requests kept</text>`,
    `<text x="10" y="42" fill="#444">grey: peer settings (lines: one peer's sweep; dashed: their frontier; ringed: defaults; one that never compacts sits on raw) · red: hatloop</text>`,
    ...panels,
    `</svg>`,
  ].join("\n");
}

function panel(v: SessionVerdict, x0: number, y0: number): string {
  const rawCost = v.raw.costUsd;
  const points = v.points.filter((p) => p.valid);
  const xs = points.map((p) => p.costUsd / rawCost);
  const ys = points.map((p) => p.kept);
  const xMax = Math.max(1.05, ...xs) * 1.05;
  const yMin = Math.max(0, Math.floor((Math.min(...ys) - 0.02) * 20) / 20);
  const w = PANEL.w - M.left - M.right;
  const h = PANEL.h - M.top - M.bottom;
  const sx = (c: number) => x0 + M.left + (c / rawCost / xMax) * w;
  const sy = (k: number) => y0 + M.top + (1 - (k - yMin) / (1 - yMin)) * h;
  const out: string[] = [
    `<text x="${x0 + M.left}" y="${y0 + 16}" font-weight="bold">${escape(v.input)} (${v.calls} calls)</text>`,
    `<rect x="${x0 + M.left}" y="${y0 + M.top}" width="${w}" height="${h}" fill="none" stroke="#bbb"/>`,
  ];
  for (const t of ticks(0, xMax))
    out.push(
      `<text x="${x0 + M.left + (t / xMax) * w}" y="${y0 + PANEL.h - M.bottom + 12}" text-anchor="middle" fill="#666">${trim(t)}x</text>`,
    );
  for (const t of ticks(yMin, 1))
    out.push(`<text x="${x0 + M.left - 4}" y="${sy(t) + 3}" text-anchor="end" fill="#666">${Math.round(t * 100)}%</text>`);
  // One line per swept peer, in cost order.
  for (const family of SWEPT) {
    const line = points.filter((p) => p.family === family).sort((a, b) => a.costUsd - b.costUsd);
    if (line.length > 1)
      out.push(`<polyline fill="none" stroke="#ccc" points="${line.map((p) => `${sx(p.costUsd)},${sy(p.kept)}`).join(" ")}"/>`);
  }
  const peers = points.filter((p) => p.family !== "hatloop");
  const front = peerFrontier(peers);
  out.push(`<polyline fill="none" stroke="#777" stroke-dasharray="4 3" points="${stairs(front, sx, sy)}"/>`);
  // Labels: hatloop first, then each default not sitting on another labelled point (those at raw's point say "raw").
  const labels = new Labels();
  const hl = v.hatloop;
  out.push(`<circle cx="${sx(hl.costUsd)}" cy="${sy(hl.kept)}" r="5" fill="#d62728"><title>hatloop</title></circle>`);
  labels.add(sx(hl.costUsd), sy(hl.kept), "hatloop", "#d62728");
  if (v.raw.valid) labels.add(sx(v.raw.costUsd), sy(v.raw.kept), "raw", "#555");
  for (const p of peers) {
    out.push(`<circle cx="${sx(p.costUsd)}" cy="${sy(p.kept)}" r="2.5" fill="#888"><title>${escape(p.strategy)}</title></circle>`);
    if (!p.isDefault || p.family === "raw") continue;
    out.push(`<circle cx="${sx(p.costUsd)}" cy="${sy(p.kept)}" r="5" fill="none" stroke="#555"/>`);
    labels.add(sx(p.costUsd), sy(p.kept), p.strategy, "#555");
  }
  out.push(...labels.svg());
  return out.join("\n");
}

/** Labels placed right of their point, one dropped when it would overlap one already placed. */
class Labels {
  private readonly placed: Array<{ x: number; y: number; width: number; svg: string }> = [];

  add(x: number, y: number, text: string, color: string): void {
    const at = { x: x + 7, y: y - 5, width: text.length * 5 };
    if (this.placed.some((p) => Math.abs(p.y - at.y) < 10 && at.x < p.x + p.width && p.x < at.x + at.width)) return;
    this.placed.push({ ...at, svg: `<text x="${at.x}" y="${at.y}" fill="${color}" font-size="9">${escape(text)}</text>` });
  }

  svg(): string[] {
    return this.placed.map((p) => p.svg);
  }
}

function trim(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function stairs(front: readonly FrontierPoint[], sx: (c: number) => number, sy: (k: number) => number): string {
  const pts: string[] = [];
  front.forEach((p, i) => {
    if (i > 0) pts.push(`${sx(p.costUsd)},${sy(front[i - 1]!.kept)}`);
    pts.push(`${sx(p.costUsd)},${sy(p.kept)}`);
  });
  return pts.join(" ");
}

function ticks(from: number, to: number): number[] {
  const step = to - from > 1.5 ? 0.5 : to - from > 0.5 ? 0.25 : 0.05;
  const out: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to + 1e-9; t += step) out.push(Math.round(t * 100) / 100);
  return out;
}

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
