import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { errorMessage } from "@hatloop/context";
import { configSchema, type HatloopConfig } from "@hatloop/core";
import { usageError } from "../errors.js";

// Layers, lowest first: user config < repo .hatloop/config.json < HATLOOP_* env < flags. Each leaf
// remembers the layer it came from, so an invalid value is reported with where to fix it.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A source of values; `origin` names where a given key came from (a file, an env variable). */
type Layer = { origin: (path: string[]) => string; values: Record<string, unknown> };

/** HATLOOP_* variables that are not configuration keys. */
const RESERVED_ENV = new Set([
  "HATLOOP_HOME",
  "HATLOOP_CONFIG",
  "HATLOOP_TEST_DATABASE_URL",
  "HATLOOP_DEBUG",
  "HATLOOP_FAILPOINT",
  "HATLOOP_SERVE_TOKEN",
]);

export interface ConfigSources {
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** The repository (or any directory inside it). */
  repoDir: string;
}

export interface LoadedConfig {
  config: HatloopConfig;
  /** Files that contributed, for `hatloop config` style diagnostics. */
  files: string[];
}

export function loadConfig(sources: ConfigSources): LoadedConfig {
  const env = sources.env ?? process.env;
  const layers: Layer[] = [];
  const files: string[] = [];
  for (const file of [userConfigPath(env), repoConfigPath(sources.repoDir)]) {
    if (!file || !existsSync(file)) continue;
    files.push(file);
    layers.push({ origin: () => displayPath(file), values: readJsonObject(file) });
  }
  layers.push(envLayer(env));
  layers.push({ origin: () => "command-line flags", values: stripUndefined(sources.flags ?? {}) });

  const origins = new Map<string, string>();
  const merged: Record<string, unknown> = {};
  for (const layer of layers) mergeInto(merged, layer.values, layer.origin, origins, []);
  const parsed = configSchema.safeParse(merged);
  if (parsed.success) return { config: parsed.data, files };
  const issue = parsed.error.issues[0]!;
  const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]!] : issue.path;
  const key = path.join(".");
  const origin = originOf(origins, path.map(String));
  const what = issue.code === "unrecognized_keys" ? "unknown key" : issue.message;
  throw usageError(`invalid config: ${key}${origin ? ` (from ${origin})` : ""}: ${what}`);
}

function userConfigPath(env: NodeJS.ProcessEnv): string {
  if (env.HATLOOP_CONFIG) return resolve(env.HATLOOP_CONFIG);
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "hatloop", "config.json");
}

/** `.hatloop/config.json` in the directory or the nearest parent up to the repository root. */
function repoConfigPath(dir: string): string | null {
  let current = resolve(dir);
  for (;;) {
    const candidate = join(current, ".hatloop", "config.json");
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(current, ".git")) || dirname(current) === current) return null;
    current = dirname(current);
  }
}

function readJsonObject(file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw usageError(`invalid config file ${displayPath(file)}: ${errorMessage(error)}`);
  }
  if (!isPlainObject(value)) throw usageError(`invalid config file ${displayPath(file)}: expected a JSON object`);
  return value;
}

/** HATLOOP_MAX_ITERATIONS -> maxIterations, HATLOOP_CONTEXT__WARN_PCT -> context.warnPct. */
function envLayer(env: NodeJS.ProcessEnv): Layer {
  const values: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith("HATLOOP_") || RESERVED_ENV.has(name) || raw === undefined) continue;
    const path = name
      .slice("HATLOOP_".length)
      .split("__")
      .map((part) => part.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
    let target = values;
    for (const part of path.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
    target[path.at(-1)!] = parseEnvValue(raw);
  }
  const envName = (path: string[]) => `HATLOOP_${path.map((p) => p.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()).join("__")}`;
  return { origin: envName, values };
}

function parseEnvValue(raw: string): Json {
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (raw === "true" || raw === "false") return raw === "true";
  // A list or an object, such as HATLOOP_TOOLS__PASS_ENV='["NPM_TOKEN"]' or HATLOOP_MCP__SERVERS='{"docs": {...}}'.
  if (raw.startsWith("[") || raw.startsWith("{")) {
    try {
      return JSON.parse(raw) as Json;
    } catch {
      return raw;
    }
  }
  return raw;
}

function mergeInto(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  origin: Layer["origin"],
  origins: Map<string, string>,
  path: string[],
): void {
  for (const [key, value] of Object.entries(source)) {
    const here = [...path, key];
    if (isPlainObject(value)) {
      const child = isPlainObject(target[key]) ? target[key] : (target[key] = {});
      mergeInto(child, value, origin, origins, here);
    } else {
      target[key] = value;
      origins.set(here.join("."), origin(here));
    }
  }
}

function originOf(origins: Map<string, string>, path: string[]): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const found = origins.get(path.slice(0, n).join("."));
    if (found) return found;
  }
  // A key whose children came from somewhere: report the first child's origin.
  const prefix = `${path.join(".")}.`;
  for (const [key, origin] of origins) if (key.startsWith(prefix)) return origin;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stripUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith("..") ? rel : file;
}
