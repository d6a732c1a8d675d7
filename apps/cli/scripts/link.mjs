// Puts `hatloop` on the PATH: writes a small launcher for this checkout's built CLI (dist/bin.js) into
// npm's global bin directory, where `npm install -g` puts commands, or into DIR. `npx -y pnpm@10
// link-hatloop [DIR]` builds first and runs this. `npm link apps/cli` cannot do it: npm 11 reads
// `apps/cli` as a GitHub repository, and `./apps/cli` fails on the workspace's `catalog:` and
// `workspace:` versions. Undo: delete the launcher it names.
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const windows = process.platform === "win32";
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

function fail(message) {
  process.stderr.write(`link-hatloop: ${message}\n`);
  process.exit(1);
}

/** npm's global bin directory: `npm prefix -g`, plus bin/ outside Windows. */
function npmBinDir() {
  const npm = spawnSync(windows ? "npm.cmd" : "npm", ["prefix", "-g"], { encoding: "utf8", shell: windows });
  const prefix = npm.status === 0 ? npm.stdout.trim() : process.env.npm_config_prefix;
  if (!prefix)
    fail(`cannot ask npm for its global directory (${npm.error?.message ?? npm.stderr.trim()}); give a directory: link-hatloop DIR`);
  return windows ? prefix : join(prefix, "bin");
}

/** A word for sh, in single quotes. */
const sh = (word) => `'${word.replaceAll("'", `'\\''`)}'`;

if (!existsSync(bin)) fail(`${bin} is missing: build first (npx -y pnpm@10 link-hatloop builds, then links)`);
const dir = process.argv[2] ? resolve(process.argv[2]) : npmBinDir();
const launcher = join(dir, windows ? "hatloop.cmd" : "hatloop");
// The node that runs this script runs hatloop too, whatever `node` the PATH finds later.
const text = windows
  ? `@"${process.execPath}" "${bin}" %*\r\n`
  : `#!/bin/sh\n# hatloop from ${resolve(bin, "../../../..")}, written by link-hatloop: delete this file to undo.\nexec ${sh(process.execPath)} ${sh(bin)} "$@"\n`;
try {
  mkdirSync(dir, { recursive: true });
  writeFileSync(launcher, text);
  if (!windows) chmodSync(launcher, 0o755);
} catch (error) {
  fail(
    `cannot write ${launcher} (${error.code ?? error.message}): give a directory of yours on the PATH (npx -y pnpm@10 link-hatloop ~/.local/bin), or run it with sudo`,
  );
}
accessSync(launcher, constants.X_OK);
process.stdout.write(`hatloop is ${launcher}\n`);
const onPath = (process.env.PATH ?? "").split(delimiter).some((entry) => entry && resolve(entry) === dir);
if (!onPath) process.stdout.write(`${dir} is not on your PATH: add it (export PATH="${dir}${delimiter}$PATH")\n`);
