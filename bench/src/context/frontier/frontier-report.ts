import type { CalibrationRow } from "../continuity/calibration.js";
import type { FrontierPoint, SessionVerdict } from "./frontier.js";

// The Markdown of the real-session verdicts: hatloop against every peer setting, cost and what it
// kept side by side, every loss said in words.

const money = (usd: number) => `$${usd.toFixed(2)}`;
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const frac = (n: number, d: number) => `${n}/${d}`;

export function renderVerdicts(verdicts: readonly SessionVerdict[], calibration: readonly CalibrationRow[]): string {
  if (verdicts.length === 0) return "";
  return [
    "### Real sessions: cost and continuity against every peer setting",
    "Kept = share of the items (paths, identifiers, quoted strings, values) each call's answer used from context older than its last three turns that the request still held; in brackets, kept or one `recall` call away. A peer's cost is its cheaper cache TTL (5 minutes or an hour); hatloop's is what its own TTL choice paid. Costs include summary calls.",
    verdictTable(verdicts),
    wordsTable(verdicts),
    losses(verdicts),
    goalsApart(verdicts),
    frontiers(verdicts),
    calibrationTable(calibration),
  ]
    .filter(Boolean)
    .join("\n\n");
}

function verdictTable(verdicts: readonly SessionVerdict[]): string {
  const rows = verdicts.map((v) => {
    const h = v.hatloop;
    const cc = v.claudeCode;
    const check = v.claudeCodeCheck;
    const vsCc = `${check.costRatio.toFixed(2)}x cost, keeps ${check.keepsAsMuch ? "as much or more" : "less"}`;
    const asGood = v.cheapestAsGood
      ? `${v.cheapestAsGood.strategy} ${money(v.cheapestAsGood.costUsd)} (hatloop ${(h.costUsd / v.cheapestAsGood.costUsd).toFixed(2)}x)`
      : "none";
    const dom = v.dominating.length ? v.dominating.slice(0, 3).map(label).join(", ") : "**none**";
    return `| \`${v.input}\` | ${v.calls} | ${money(h.costUsd)} · ${pct(h.kept)}${h.keptOrRecallable === null ? "" : ` (${pct(h.keptOrRecallable)})`} | ${money(cc.costUsd)} · ${pct(cc.kept)}${cc.compacted ? "" : " (never compacts)"} | ${vsCc} | ${asGood} | ${dom} |`;
  });
  return [
    "| session | calls | hatloop: cost · kept | Claude Code default: cost · kept | hatloop vs Claude Code | cheapest peer setting keeping as much | peer settings cheaper and keeping more |",
    "|---|---:|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

function wordsTable(verdicts: readonly SessionVerdict[]): string {
  const rows = verdicts.map((v) => {
    const d = v.decisions;
    const n = v.noise;
    const dec = d
      ? `${frac(d.handoff.kept, d.handoff.total)} · ${d.fullHandoff ? frac(d.fullHandoff.kept, d.fullHandoff.total) : "–"}`
      : "no reference list";
    const hand = (h: { labelled: number; noise: number; unlabelled: number }) =>
      `${frac(h.noise, h.labelled)}${h.unlabelled ? ` (+${h.unlabelled} unlabelled)` : ""}`;
    const noise = n
      ? `${frac(n.handoff.noise, n.handoff.lines)} · ${n.fullHandoff ? frac(n.fullHandoff.noise, n.fullHandoff.lines) : "–"} | ${hand(n.byHand.handoff)} · ${hand(n.byHand.fullHandoff)}`
      : "– | –";
    return `| \`${v.input}\` | ${frac(v.person.task, v.person.calls)} | ${frac(v.person.latest, v.person.calls)} | ${dec} | ${noise} | ${frac(v.paths.present, v.paths.total)} |`;
  });
  return [
    "hatloop's requests and handoff: the person's words (calls whose request held the task, and the latest thing the person wrote, verbatim up to 1,000 characters), decisions of the hand-written reference lists kept by the resume packet and the full handoff, and noise among the key decisions listed: by the bench's rules (seed 000's: narration, status and progress, questions, cut text) and by independent hand labels (also fragments and findings).",
    "| session | task in request | latest request in request | reference decisions: packet · full handoff | decision noise by the bench's rules: packet · full | by hand labels: packet · full | modified paths in packet |",
    "|---|---:|---:|---|---|---|---:|",
    ...rows,
  ].join("\n");
}

function losses(verdicts: readonly SessionVerdict[]): string {
  const lines: string[] = [];
  for (const v of verdicts) {
    if (v.dominating.length)
      lines.push(`\`${v.input}\`: ${v.dominating.map(label).join(", ")} cost less and keep more than hatloop (${label(v.hatloop)}).`);
    const c = v.claudeCodeCheck;
    if (!c.keepsAsMuch)
      lines.push(
        `\`${v.input}\`: hatloop keeps ${pct(v.hatloop.kept)} of the needed items, Claude Code's default ${pct(v.claudeCode.kept)}.`,
      );
    if (!c.costOk)
      lines.push(
        c.peerCompacts
          ? `\`${v.input}\`: hatloop costs ${c.costRatio.toFixed(2)}x Claude Code's default, which compacts here (the goal is 0.5x).`
          : `\`${v.input}\`: hatloop costs more than sending everything (${money(v.hatloop.costUsd)} against ${money(v.raw.costUsd)}).`,
      );
    if (v.person.task < v.person.calls || v.person.latest < v.person.calls)
      lines.push(
        `\`${v.input}\`: the person's words are missing from some requests (task ${frac(v.person.task, v.person.calls)}, latest ${frac(v.person.latest, v.person.calls)}).`,
      );
    const noise = v.noise?.handoff;
    if (noise && noise.lines > 0 && noise.noise / noise.lines > 0.1)
      lines.push(`\`${v.input}\`: ${frac(noise.noise, noise.lines)} key decisions of the packet are noise by the bench's rules.`);
    const hand = v.noise?.byHand.handoff;
    if (hand && hand.labelled > 0 && hand.noise / hand.labelled > 0.1)
      lines.push(`\`${v.input}\`: ${frac(hand.noise, hand.labelled)} of the packet's key decisions are noise by the hand labels.`);
  }
  return lines.length
    ? `**Where hatloop loses:**\n${lines.map((l) => `- ${l}`).join("\n")}`
    : "**Where hatloop loses:** nowhere on these sessions.";
}

/**
 * Why the two Claude Code goals pull apart: keeping everything on the sessions where it never
 * compacts means sending everything up to their peak, and where it compacts that much alone may
 * already cost more than half of its whole session. No policy that cannot see the future escapes both.
 */
export function goalsApart(verdicts: readonly SessionVerdict[]): string {
  const fits = verdicts.filter((v) => !v.claudeCodeCheck.peerCompacts);
  const compacts = verdicts.filter((v) => v.claudeCodeCheck.peerCompacts);
  if (fits.length === 0 || compacts.length === 0) return "";
  const peak = Math.max(...fits.map((v) => v.sendAll.peakPctOfWindow));
  const low = Math.min(...fits.map((v) => v.sendAll.peakPctOfWindow));
  const pcts = compacts[0]!.sendAll.costUntil.map((c) => c.pctOfWindow);
  const step = pcts.filter((p) => p <= peak).at(-1);
  const share = (v: SessionVerdict, p: number) => v.sendAll.costUntil.find((c) => c.pctOfWindow === p)!.usd / v.claudeCode.costUsd;
  const rows = compacts.map((v) => `| \`${v.input}\` | ${pcts.map((p) => `${share(v, p).toFixed(2)}x`).join(" | ")} |`);
  const over = step === undefined ? [] : compacts.filter((v) => share(v, step) > 0.5);
  return [
    `**Why keeping all where Claude Code never compacts and costing half of it where it does pull apart.** Where it never compacts (${fits.length} sessions), sending everything peaks at ${low === peak ? "" : `${low}-`}${peak}% of the window; a policy sure to keep all there sends everything up to ${peak}%. Where it compacts, sending everything until the context passes a share of the window already costs, as a multiple of Claude Code's whole session:`,
    ["| session | " + pcts.map((p) => `${p}%`).join(" | ") + " |", "|---|" + pcts.map(() => "---:").join("|") + "|", ...rows].join("\n"),
    step === undefined
      ? ""
      : `Up to ${step}% it is more than 0.5x on ${over.length} of ${compacts.length} (${over.map((v) => `\`${v.input}\``).join(", ") || "none"}): a policy that cannot see how long a session will grow cannot meet both goals there.`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** Per session, the peer settings no other peer setting beats on both cost and what it keeps. */
function frontiers(verdicts: readonly SessionVerdict[]): string {
  const lines = verdicts.map((v) => {
    const peers = v.points.filter((p) => p.family !== "hatloop" && p.valid);
    return `- \`${v.input}\`: ${peerFrontier(peers).map(label).join(" → ")}; ${label(v.hatloop)}`;
  });
  return `The peers' frontier per session (cheapest first; each keeps more than every cheaper one):\n${lines.join("\n")}`;
}

/** The peer settings no cheaper one matches on what it keeps, cheapest first; of equal points, the first. */
export function peerFrontier(peers: readonly FrontierPoint[]): FrontierPoint[] {
  const sorted = [...peers].sort((a, b) => a.costUsd - b.costUsd || b.kept - a.kept);
  const front: FrontierPoint[] = [];
  for (const p of sorted) if (front.length === 0 || p.kept > front.at(-1)!.kept) front.push(p);
  return front;
}

function calibrationTable(rows: readonly CalibrationRow[]): string {
  if (rows.length === 0) return "";
  const body = rows.map(
    (r) =>
      `| \`${r.input}\` | ${r.agent} | ${r.beforeMessage} | ${r.calls} | ${r.items} | ${r.real.kept} (${r.real.tokens}) | ${r.standIn.kept} (${r.standIn.tokens}) | ${r.standInWithFiles ? `${r.standInWithFiles.kept} (${r.standInWithFiles.tokens})` : "–"} |`,
  );
  return [
    "The summary stand-in against the agents' own summaries: at each compaction the agent really made, the items its later calls needed that only the summarised part held, kept by its summary and by the stand-in for the same history (tokens in brackets).",
    "| session | agent | at message | calls after | items | its summary kept | stand-in kept | stand-in + Claude Code's 5 files kept |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    ...body,
  ].join("\n");
}

function label(p: FrontierPoint): string {
  return `${p.strategy} ${money(p.costUsd)} ${pct(p.kept)}`;
}
