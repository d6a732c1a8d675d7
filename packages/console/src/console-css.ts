// The console's style sheet, as a module (nothing to copy next to the build). Light and dark follow
// the system; narrow screens drop the secondary columns and stack the session page's panels.

export const CONSOLE_CSS = `
:root { color-scheme: light dark; --bg: #fbfbfa; --fg: #1d1d1b; --muted: #6b6b66; --line: #e3e2dd; --panel: #fff;
  --accent: #2f5fd0; --ok: #1f7a3d; --warn: #a05a00; --bad: #b3261e; --add: #e6f4ea; --del: #fce8e6; --hunk: #eef1fb;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
@media (prefers-color-scheme: dark) { :root { --bg: #161616; --fg: #e8e8e4; --muted: #9a9a94; --line: #2e2e2b; --panel: #1e1e1c;
  --accent: #8ab0ff; --ok: #6fcf8d; --warn: #f0b35a; --bad: #ff8a80; --add: #173d24; --del: #4a1c1a; --hunk: #1f2740; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); background: var(--panel); }
.brand { font-weight: 700; color: var(--fg); }
nav { display: flex; gap: 1rem; }
nav a[aria-current=page] { font-weight: 600; color: var(--fg); }
main { padding: 1rem 1.2rem 3rem; max-width: 1400px; margin: 0 auto; }
h1 { font-size: 1.25rem; margin: .2rem 0 .8rem; }
h2 { font-size: 1rem; margin: 1.2rem 0 .5rem; }
.totals { display: flex; flex-wrap: wrap; gap: .4rem 1.4rem; margin-bottom: .8rem; color: var(--muted); }
.totals b { color: var(--fg); }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: .8rem; }
input, select, button, textarea { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .3rem .5rem; }
button { cursor: pointer; }
input.short { width: 7.5rem; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--bad); }
#sessions, #fleet { overflow-x: auto; } /* a table wider than a phone scrolls in its box, not the page */
table { width: 100%; border-collapse: collapse; background: var(--panel); border: 1px solid var(--line); }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: .85rem; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
#rows td:nth-child(3) { white-space: nowrap; } /* a worker's name ("build-1") is not broken at its dash */
.task { max-width: 32rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; border: 1px solid currentColor; white-space: nowrap; }
.s-running, .s-completed, .s-alive { color: var(--ok); }
.s-waiting, .s-paused, .s-queued, .s-draining, .s-retrying { color: var(--warn); }
.s-failed, .s-stopped, .s-interrupted, .s-lost, .s-dead-lettered { color: var(--bad); }
.question { color: var(--warn); font-size: .85rem; }
.muted { color: var(--muted); }
.empty { color: var(--muted); padding: 1rem; text-align: center; }
.cols { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); gap: 1rem; align-items: start; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .6rem .8rem; margin-bottom: 1rem; }
.facts { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .6rem 0; }
.actions form { display: flex; gap: .4rem; align-items: center; }
ol.stream { list-style: none; margin: 0; padding: 0; max-height: 70vh; overflow: auto; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
ol.stream > li { padding: .1rem .2rem; white-space: pre-wrap; word-break: break-word; }
ol.stream > li.text { display: inline; padding: 0; }
ol.stream > li.iteration { display: block; margin-top: .6rem; padding: .25rem .4rem; background: var(--hunk); font-weight: 600; border-radius: 4px; }
ol.stream > li.bad { color: var(--bad); }
ol.stream > li.gates .pass { color: var(--ok); } ol.stream > li.gates .fail { color: var(--bad); }
ol.stream > li.grader .pass { color: var(--ok); } ol.stream > li.grader .fail { color: var(--bad); }
ol.stream > li.grader ul.verdicts { margin: .2rem 0 .2rem 1.2rem; padding: 0; list-style: none; }
details > summary { cursor: pointer; }
.panel > pre, .panel .scroll { max-height: 22rem; overflow: auto; }
pre { margin: .3rem 0; white-space: pre-wrap; word-break: break-word; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.diff span { display: block; }
pre.diff .add { background: var(--add); } pre.diff .del { background: var(--del); } pre.diff .hunk { background: var(--hunk); color: var(--muted); }
ul.checklist { list-style: none; padding: 0; margin: 0; }
ul.checklist li::before { content: "○ "; } ul.checklist li.done::before { content: "✓ "; color: var(--ok); } ul.checklist li.failed::before { content: "✗ "; color: var(--bad); }
svg.chart { width: 100%; height: auto; }
svg.chart .line { fill: none; stroke: var(--accent); stroke-width: 2; }
svg.chart .axis { stroke: var(--line); } svg.chart text { fill: var(--muted); font-size: 11px; }
svg.chart .compaction { stroke: var(--warn); stroke-dasharray: 3 3; } svg.chart .limit { stroke: var(--bad); stroke-dasharray: 2 4; }
#toast { position: fixed; right: 1rem; bottom: 1rem; max-width: 28rem; }
#toast p { margin: .3rem 0 0; padding: .5rem .8rem; border-radius: 6px; background: var(--panel); border: 1px solid var(--line); box-shadow: 0 2px 8px #0002; }
#toast p.err { border-color: var(--bad); color: var(--bad); }
.login { max-width: 26rem; margin: 4rem auto; padding: 0 1rem; }
.login form { display: flex; flex-wrap: wrap; gap: .5rem; }
.login input[name=token] { flex: 1 1 12rem; min-width: 0; }
@media (max-width: 760px) {
  main { padding: .6rem; }
  .cols { grid-template-columns: 1fr; }
  .wide { display: none; }
  .task { max-width: 8rem; }
  th, td { padding: .35rem .4rem; }
}
`;
