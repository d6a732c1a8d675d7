import type { SessionSeries } from "../backend.js";

// Two small charts drawn on the server as SVG (no charting script): what the session has cost over
// time, and its context's size against the window after each iteration, with each compaction marked.

const W = 480;
const H = 140;
const PAD = { left: 44, right: 8, top: 10, bottom: 20 };

interface Chart {
  points: Array<[number, number]>;
  yMax: number;
  /** x positions to mark with a dashed line. */
  marks?: number[];
  /** A y value drawn as a dotted line (a limit). */
  limit?: number;
  yLabel: (y: number) => string;
  xLabel: (x: number) => string;
  title: string;
}

function LineChart(props: Chart) {
  const { points } = props;
  if (points.length < 2) return <p class="muted">{props.title}: not enough data yet.</p>;
  const xs = points.map(([x]) => x);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const sx = (x: number) => PAD.left + ((x - x0) / Math.max(x1 - x0, 1e-9)) * (W - PAD.left - PAD.right);
  const sy = (y: number) => H - PAD.bottom - (y / Math.max(props.yMax, 1e-9)) * (H - PAD.top - PAD.bottom);
  const path = points.map(([x, y], i) => `${i ? "L" : "M"}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join("");
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.title}>
      <title>{props.title}</title>
      <line class="axis" x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
      <line class="axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} />
      <text x={PAD.left - 4} y={PAD.top + 8} text-anchor="end">
        {props.yLabel(props.yMax)}
      </text>
      <text x={PAD.left - 4} y={H - PAD.bottom} text-anchor="end">
        {props.yLabel(0)}
      </text>
      <text x={PAD.left} y={H - 4}>
        {props.xLabel(x0)}
      </text>
      <text x={W - PAD.right} y={H - 4} text-anchor="end">
        {props.xLabel(x1)}
      </text>
      {props.limit === undefined ? null : <line class="limit" x1={PAD.left} x2={W - PAD.right} y1={sy(props.limit)} y2={sy(props.limit)} />}
      {(props.marks ?? []).map((x) => (
        <line class="compaction" x1={sx(x)} x2={sx(x)} y1={PAD.top} y2={H - PAD.bottom} />
      ))}
      <path class="line" d={path} />
    </svg>
  );
}

const time = (ms: number) => new Date(ms).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false });

export function Charts(props: { series: SessionSeries; maxCostUsd: number | null; oob?: boolean }) {
  const { cost, gauge, compactions } = props.series;
  const window = gauge.at(-1)?.window ?? 0;
  const spent = cost.at(-1)?.costUsd ?? 0;
  return (
    <section id="charts" class="panel" hx-swap-oob={props.oob ? "true" : undefined}>
      <h2>Cost over time</h2>
      <LineChart
        title="Cost over time"
        points={cost.map((c) => [c.at, c.costUsd])}
        yMax={Math.max(spent, props.maxCostUsd ?? 0) || 0.01}
        {...(props.maxCostUsd === null ? {} : { limit: props.maxCostUsd })}
        yLabel={(y) => `$${y.toFixed(2)}`}
        xLabel={time}
      />
      <h2>Context after each iteration</h2>
      <LineChart
        title="Context size after each iteration, compactions dashed"
        points={gauge.map((g) => [g.iteration, g.tokens])}
        yMax={window || Math.max(1, ...gauge.map((g) => g.tokens))}
        marks={compactions.map((c) => c.iteration)}
        yLabel={(y) => `${Math.round(y / 1000)}k`}
        xLabel={(x) => `it. ${Math.round(x)}`}
      />
      <p class="muted">
        {compactions.length ? `${compactions.length} compaction${compactions.length === 1 ? "" : "s"} (dashed)` : "no compaction yet"}
      </p>
    </section>
  );
}
