#!/usr/bin/env node
// Builds the real-session corpus from its public sources (README.md beside this file says how to
// bring them in): for each session of sources.json, reads the raw file(s), checks their sha256,
// converts them (convert.mjs), checks the pairing the Messages API requires and the transcript's
// sha256, and writes bench/corpus/.data/<id>.jsonl, and beside it <id>.compactions.json (the
// agent's own compaction summaries, sha256 checked too; git-ignored: no fetched data is committed).
// Idempotent: up-to-date files are left as they are. One line per session; errors are one
// line each and make the exit code 1 (2 for a bad argument). Needs Node 20 and a built
// @hatloop/context (pnpm build), for validatePairing and estimateTokens.
//
//   node bench/corpus/fetch-corpus.mjs [--mirror DIR] [--raw DIR] [--out DIR] [--only ID,...]
//                                      [--save-raw DIR] [--update] [--json]
//
// --mirror DIR  where `fetch` put the snapshots: DIR/<owner>+<name>/repo (git directories);
//               default $HATLOOP_CORPUS_MIRROR or /work/.mirror. The raw file is read from the
//               commit sources.json names, so a newer snapshot gives the same bytes.
// --raw DIR     read the raw files from DIR/<id>/<file name> instead (any way you got them).
// --save-raw DIR  also copy each verified raw file to DIR/<id>/<file name>.
// --update      maintainers only: record the computed checksums and figures in sources.json
//               instead of checking them (after a deliberate change to convert.mjs). The figures
//               include `times`: messages with a time, the session's span and the gaps between
//               consecutive model calls (what prompt-cache expiry depends on).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { convert, serialize } from "./convert.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const SOURCES = join(HERE, "sources.json");
const WINDOW = 200_000;

function usage(message) {
  process.stderr.write(`fetch-corpus: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {
    mirror: process.env.HATLOOP_CORPUS_MIRROR || "/work/.mirror",
    raw: null,
    out: join(HERE, ".data"),
    only: null,
    saveRaw: null,
    update: false,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) usage(`${arg} needs a value`);
      return v;
    };
    if (arg === "--mirror") opts.mirror = resolve(value());
    else if (arg === "--raw") opts.raw = resolve(value());
    else if (arg === "--out") opts.out = resolve(value());
    else if (arg === "--save-raw") opts.saveRaw = resolve(value());
    else if (arg === "--only") opts.only = new Set(value().split(",").filter(Boolean));
    else if (arg === "--update") opts.update = true;
    else if (arg === "--json") opts.json = true;
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(
        readFileSync(fileURLToPath(import.meta.url), "utf8")
          .split("\n")
          .filter((l) => l.startsWith("//"))
          .map((l) => l.slice(3))
          .join("\n") + "\n",
      );
      process.exit(0);
    } else usage(`unknown argument ${JSON.stringify(arg)} (see --help)`);
  }
  return opts;
}

const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");

/** Writes text to path unless it already holds exactly that; says which. */
function writeIfChanged(path, text, digest) {
  if (existsSync(path) && sha256(readFileSync(path)) === digest) return "up to date";
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  return "written";
}

const round1 = (x) => Math.round(x * 10) / 10;

/** Wall-clock figures of a transcript: its span and the gaps between consecutive model calls. */
function timeFigures(messages) {
  const times = messages.map((m) => (m.at === undefined ? null : Date.parse(m.at)));
  const timed = times.filter((t) => t !== null);
  const gaps = []; // seconds between an assistant message and the next, when both have a time
  let previous = null;
  messages.forEach((m, i) => {
    if (m.role !== "assistant") return;
    if (previous !== null && times[i] !== null) gaps.push((times[i] - previous) / 1000);
    previous = times[i];
  });
  gaps.sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  const median = gaps.length === 0 ? null : gaps.length % 2 ? gaps[mid] : (gaps[mid - 1] + gaps[mid]) / 2;
  return {
    messagesWithTime: timed.length,
    spanMinutes: timed.length === 0 ? null : round1((Math.max(...timed) - Math.min(...timed)) / 60_000),
    assistantGaps: gaps.length,
    medianGapS: median === null ? null : round1(median),
    p90GapS: gaps.length === 0 ? null : round1(gaps[Math.ceil(gaps.length * 0.9) - 1]),
    maxGapS: gaps.length === 0 ? null : round1(gaps[gaps.length - 1]),
    gapsOver5m: gaps.filter((g) => g > 300).length,
    gapsOver1h: gaps.filter((g) => g > 3600).length,
  };
}

function readRaw(session, file, opts) {
  if (opts.raw !== null) {
    const path = join(opts.raw, session.id, basename(file.path));
    if (!existsSync(path)) throw new Error(`${path} not found`);
    return readFileSync(path);
  }
  const gitDir = join(opts.mirror, session.repo.replace("/", "+"), "repo");
  if (!existsSync(gitDir)) throw new Error(`no snapshot of ${session.repo} at ${gitDir}: fetch github:${session.repo} first (README.md)`);
  try {
    return execFileSync("git", ["--git-dir", gitDir, "cat-file", "blob", `${session.commit}:${file.path}`], {
      maxBuffer: 1 << 30,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const why = String(error.stderr ?? error.message)
      .trim()
      .split("\n")
      .pop();
    throw new Error(`${session.repo}@${session.commit.slice(0, 12)}:${file.path}: ${why}`, { cause: error });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let context;
  try {
    context = await import("@hatloop/context");
  } catch (error) {
    usage(`cannot load @hatloop/context (${error.message.split("\n")[0]}); run pnpm install && pnpm build first`);
  }
  const { validatePairing, estimateTokens } = context;
  const sources = JSON.parse(readFileSync(SOURCES, "utf8"));
  const sessions = sources.sessions.filter((s) => opts.only === null || opts.only.has(s.id));
  if (opts.only !== null)
    for (const id of opts.only) if (!sources.sessions.some((s) => s.id === id)) usage(`no session ${JSON.stringify(id)} in sources.json`);
  mkdirSync(opts.out, { recursive: true });

  let failed = 0;
  const report = [];
  for (const session of sessions) {
    try {
      const texts = [];
      for (const file of session.raw) {
        const buf = readRaw(session, file, opts);
        const digest = sha256(buf);
        if (opts.update) Object.assign(file, { sha256: digest, bytes: buf.length });
        else if (digest !== file.sha256) throw new Error(`raw ${file.path}: sha256 ${digest}, expected ${file.sha256}`);
        if (opts.saveRaw !== null) {
          mkdirSync(join(opts.saveRaw, session.id), { recursive: true });
          writeFileSync(join(opts.saveRaw, session.id, basename(file.path)), buf);
        }
        texts.push(buf.toString("utf8"));
      }
      const { messages, notes, compactions } = convert(session.format, texts);
      const problems = validatePairing(messages, { allowPendingToolUse: true });
      if (problems.length > 0)
        throw new Error(`${problems.length} pairing problem(s), first: message ${problems[0].index}: ${problems[0].detail}`);
      const text = serialize(messages);
      const digest = sha256(text);
      const side = JSON.stringify({ session: session.id, compactions }, null, 2) + "\n";
      const sideDigest = sha256(side);
      const figures = {
        messages: messages.length,
        modelCalls: notes.modelCalls,
        estimatedTokens: estimateTokens(messages),
        thinkingTokens: Math.ceil(
          messages.reduce((n, m) => n + m.content.reduce((k, b) => k + (b.type === "thinking" ? b.thinking.length : 0), 0), 0) / 4,
        ),
      };
      if (opts.update) {
        session.transcript = { sha256: digest, bytes: Buffer.byteLength(text), messages: figures.messages };
        Object.assign(session, {
          modelCalls: figures.modelCalls,
          estimatedTokens: figures.estimatedTokens,
          thinkingTokens: figures.thinkingTokens,
          overWindow: figures.estimatedTokens > WINDOW,
          conversion: notes,
          times: timeFigures(messages),
          compactions: { sha256: sideDigest, bytes: Buffer.byteLength(side), count: compactions.length },
        });
      } else if (digest !== session.transcript.sha256) {
        throw new Error(
          `converted transcript: sha256 ${digest}, expected ${session.transcript.sha256} (convert.mjs changed? see --update)`,
        );
      } else if (sideDigest !== session.compactions?.sha256) {
        throw new Error(
          `compactions file: sha256 ${sideDigest}, expected ${session.compactions?.sha256} (convert.mjs changed? see --update)`,
        );
      }
      const out = join(opts.out, `${session.id}.jsonl`);
      const states = [
        writeIfChanged(out, text, digest),
        writeIfChanged(join(opts.out, `${session.id}.compactions.json`), side, sideDigest),
      ];
      const state = states.includes("written") ? "written" : "up to date";
      report.push({ id: session.id, ok: true, state, out, ...figures, compactions: compactions.length, times: timeFigures(messages) });
      if (!opts.json)
        process.stdout.write(
          `ok ${session.id}: ${figures.modelCalls} model calls, ~${figures.estimatedTokens.toLocaleString("en-US")} tokens${figures.estimatedTokens > WINDOW ? " (over the 200k window)" : ""}, ${compactions.length} compaction(s), ${state}: ${out}\n`,
        );
    } catch (error) {
      failed += 1;
      const message = String(error.message).split("\n")[0];
      report.push({ id: session.id, ok: false, error: message });
      process.stderr.write(`error ${session.id}: ${message}\n`);
    }
  }
  if (opts.update) writeFileSync(SOURCES, JSON.stringify(sources, null, 2) + "\n");
  if (opts.json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  process.exit(failed > 0 ? 1 : 0);
}

await main();
