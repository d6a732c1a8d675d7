#!/usr/bin/env node
// Pictures of the run view, its files view, outline and cost panel, and the home screen for
// docs/tui.md, rendered from real terminal captures: the demo runs in a tmux pane of each size
// (80x24, 120x40, 200x60), is paused once the critic has worked, the pane is captured with its
// colours (capture-pane -e), then with the files view (f), the outline (Z) and the cost panel ($);
// the demo quits and `hatloop` alone shows the home screen. Each capture is drawn here as SVG.
//   node packages/tui/scripts/pictures.mjs [out-dir]   (needs tmux and a built apps/cli)
/* eslint-disable no-control-regex -- reading the terminal's escape sequences (ESC [ ... m) is the point */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const root = new URL("../../../", import.meta.url).pathname;
const out = resolve(process.argv[2] ?? join(root, "docs/images"));
const bin = join(root, "apps/cli/dist/bin.js");
const SIZES = [
  [80, 24],
  [120, 40],
  [200, 60],
];
const socket = `hatloop-pictures-${process.pid}`;
const tmux = (...args) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });

const PALETTE = ["#1e1e1e", "#e05561", "#8cc265", "#d18f52", "#4aa5f0", "#c162de", "#42b3c2", "#d7dae0"];
const BRIGHT = ["#5c6370", "#ff616e", "#a5e075", "#f0a45d", "#4dc4ff", "#de73ff", "#4cd1e0", "#ffffff"];
const FG = "#d7dae0";
const BG = "#1e1e1e";

function color256(n) {
  if (n < 8) return PALETTE[n];
  if (n < 16) return BRIGHT[n - 8];
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255];
    const i = n - 16;
    return `rgb(${v[Math.floor(i / 36)]},${v[Math.floor(i / 6) % 6]},${v[i % 6]})`;
  }
  const g = 8 + (n - 232) * 10;
  return `rgb(${g},${g},${g})`;
}

const BLANK = () => ({ fg: null, bg: null, bold: false, dim: false, italic: false, underline: false, inverse: false });

/** Applies one SGR sequence's codes to the style. */
function applySgr(style, params) {
  const codes = (params || "0").split(";").map(Number);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c === 0) Object.assign(style, BLANK());
    else if (c === 1) style.bold = true;
    else if (c === 2) style.dim = true;
    else if (c === 3) style.italic = true;
    else if (c === 4) style.underline = true;
    else if (c === 7) style.inverse = true;
    else if (c === 22) style.bold = style.dim = false;
    else if (c === 23) style.italic = false;
    else if (c === 24) style.underline = false;
    else if (c === 27) style.inverse = false;
    else if (c >= 30 && c <= 37) style.fg = PALETTE[c - 30];
    else if (c >= 90 && c <= 97) style.fg = BRIGHT[c - 90];
    else if (c === 39) style.fg = null;
    else if (c >= 40 && c <= 47) style.bg = PALETTE[c - 40];
    else if (c >= 100 && c <= 107) style.bg = BRIGHT[c - 100];
    else if (c === 49) style.bg = null;
    else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
      style[c === 38 ? "fg" : "bg"] = color256(codes[i + 2]);
      i += 2;
    } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
      style[c === 38 ? "fg" : "bg"] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
      i += 4;
    }
  }
}

const CELL_W = 8.4;
const CELL_H = 17;

/**
 * The captured screen (capture-pane -e: SGR sequences only) as an SVG picture: a cell grid, each run
 * of same-styled characters a <text> placed at its column (so glyph widths cannot make it drift), its
 * background a <rect>. No browser needed, and the text stays searchable.
 */
export function toSvg(screen, columns, rows) {
  const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const style = BLANK();
  const out = [];
  screen
    .split("\n")
    .slice(0, rows)
    .forEach((line, row) => {
      let column = 0;
      for (const part of line.split(/(\x1b\[[0-9;]*m)/)) {
        const sgr = /^\x1b\[([0-9;]*)m$/.exec(part);
        if (sgr) {
          applySgr(style, sgr[1]);
          continue;
        }
        const text = [...part.replace(/\x1b[^a-zA-Z]*[a-zA-Z]/g, "")];
        if (text.length === 0) continue;
        const fg = style.inverse ? (style.bg ?? BG) : (style.fg ?? FG);
        const bg = style.inverse ? (style.fg ?? FG) : style.bg;
        const x = 12 + column * CELL_W;
        const y = 10 + row * CELL_H;
        if (bg)
          out.push(`<rect x="${x.toFixed(1)}" y="${y}" width="${(text.length * CELL_W).toFixed(1)}" height="${CELL_H}" fill="${bg}"/>`);
        const body = text.join("");
        if (body.trim()) {
          const attrs = [
            `x="${x.toFixed(1)}"`,
            `y="${y + 13}"`,
            `fill="${fg}"`,
            style.bold ? `font-weight="bold"` : "",
            style.dim ? `opacity=".6"` : "",
            style.italic ? `font-style="italic"` : "",
            style.underline ? `text-decoration="underline"` : "",
            `textLength="${(text.length * CELL_W).toFixed(1)}"`,
            `lengthAdjust="spacingAndGlyphs"`,
          ].filter(Boolean);
          // Each text keeps its spaces itself: Chromium does not inherit xml:space from the root, and
          // a row whose spaces collapse is stretched across its textLength.
          out.push(`<text xml:space="preserve" ${attrs.join(" ")}>${esc(body)}</text>`);
        }
        column += text.length;
      }
    });
  const width = Math.ceil(24 + columns * CELL_W);
  const height = 20 + rows * CELL_H;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14">
<rect width="100%" height="100%" fill="${BG}"/>
${out.join("\n")}
</svg>
`;
}

async function waitFor(target, pattern, limitMs = 5 * 60_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const screen = tmux("capture-pane", "-p", "-t", target);
    if (pattern.test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`${target} never showed ${pattern}:\n${screen}`);
    await sleep(50);
  }
}

const home = mkdtempSync(join(tmpdir(), "hatloop-pictures-"));

/** The pane captured with its colours, as an SVG named `file` in the output directory. */
function shoot(target, file, columns, rows) {
  const path = join(out, `${file}.svg`);
  writeFileSync(path, toSvg(tmux("capture-pane", "-e", "-p", "-t", target), columns, rows));
  console.log(path);
}

mkdirSync(out, { recursive: true });
try {
  for (const [columns, rows] of SIZES) {
    const name = `s${columns}`;
    const env = `env -u CI -u FORCE_COLOR -u NO_COLOR HATLOOP_HOME=${home}/${name} HATLOOP_CONFIG=${home}/none.json TERM=xterm-256color COLORTERM=truecolor`;
    tmux("new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), `${env} ${process.execPath} ${bin} demo; sleep 600`);
    // Paused just after the critic starts: hats, checklist, scratchpad, tools and a gauge in view.
    await waitFor(name, /critic@\d+/);
    tmux("send-keys", "-t", name, "p");
    await waitFor(name, /paused \(paused by the user\)/);
    await sleep(1500); // the clock's next tick, so the frame is settled
    shoot(name, `run-view-${columns}x${rows}`, columns, rows);
    // The files view (f): the last checkpoint's files and the first one's diff.
    tmux("send-keys", "-t", name, "f");
    await waitFor(name, /Files · checkpoint #\d+/);
    await waitFor(name, /diff --git|cannot be read|changed no file/);
    shoot(name, `files-view-${columns}x${rows}`, columns, rows);
    tmux("send-keys", "-t", name, "Escape");
    // The outline: every ended iteration folded to its header (Z), then unfolded again.
    tmux("send-keys", "-t", name, "Z");
    await waitFor(name, /folded \(z\)/);
    shoot(name, `outline-${columns}x${rows}`, columns, rows);
    tmux("send-keys", "-t", name, "Z");
    // The cost panel over the same run ($), then the home screen (hatloop alone) once it has paused.
    tmux("send-keys", "-t", name, "$");
    await waitFor(name, /cost of session/);
    shoot(name, `cost-panel-${columns}x${rows}`, columns, rows);
    tmux("send-keys", "-t", name, "Escape");
    tmux("send-keys", "-t", name, "q");
    tmux("send-keys", "-t", name, "y");
    await waitFor(name, /hatloop: paused/);
    tmux("new-window", "-t", name, `${env} ${process.execPath} ${bin}; sleep 600`);
    await waitFor(`${name}:1`, /1 of 1 session/);
    await sleep(2500); // a refresh or two: the row's age settles
    shoot(`${name}:1`, `home-${columns}x${rows}`, columns, rows);
  }
} finally {
  try {
    tmux("kill-server");
  } catch {
    // gone
  }
}
