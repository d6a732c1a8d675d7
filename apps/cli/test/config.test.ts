import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load.js";
import { CliError } from "../src/errors.js";

function fixture(repoConfig?: unknown, userConfig?: unknown) {
  const root = mkdtempSync(join(tmpdir(), "hatloop-config-"));
  const repo = join(root, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "src", "deep"), { recursive: true });
  if (repoConfig !== undefined) {
    mkdirSync(join(repo, ".hatloop"));
    writeFileSync(join(repo, ".hatloop", "config.json"), typeof repoConfig === "string" ? repoConfig : JSON.stringify(repoConfig));
  }
  const userFile = join(root, "user.json");
  if (userConfig !== undefined) writeFileSync(userFile, JSON.stringify(userConfig));
  return { repo, env: { HATLOOP_CONFIG: userFile } as NodeJS.ProcessEnv };
}

function errorOf(fn: () => unknown): CliError {
  try {
    fn();
  } catch (error) {
    return error as CliError;
  }
  throw new Error("expected an error");
}

describe("config layers", () => {
  it("uses defaults when nothing is configured", () => {
    const { repo, env } = fixture();
    const { config, files } = loadConfig({ repoDir: repo, env });
    expect(files).toEqual([]);
    expect(config).toMatchObject({
      model: "claude-sonnet-5-5",
      maxIterations: 100,
      maxRuntime: 4 * 3_600_000,
      context: { warnPct: 80, compactPct: 90 },
      checkpoint: { interval: 5, retain: 20 },
    });
  });

  it("applies flags > HATLOOP_* env > repo file > user file, key by key", () => {
    const { repo, env } = fixture(
      { model: "repo-model", maxIterations: 20, context: { warnPct: 75 }, gates: { test: "make test" } },
      { model: "user-model", maxIterations: 10, maxCostUsd: 3, context: { warnPct: 70, compactPct: 85 }, hat: "creator" },
    );
    const { config } = loadConfig({
      repoDir: join(repo, "src", "deep"),
      env: { ...env, HATLOOP_MAX_ITERATIONS: "30", HATLOOP_CONTEXT__GAUGE_PCT: "60", HATLOOP_MAX_RUNTIME: "90m" },
      flags: { maxIterations: 40, model: undefined },
    });
    expect(config.maxIterations).toBe(40); // flag
    expect(config.model).toBe("repo-model"); // repo file beats user file; undefined flag ignored
    expect(config.maxCostUsd).toBe(3); // only the user file sets it
    expect(config.hat).toBe("creator");
    expect(config.maxRuntime).toBe(90 * 60_000); // env, parsed as a duration
    expect(config.context).toMatchObject({ gaugePct: 60, warnPct: 75, compactPct: 85 });
    expect(config.gates.test).toBe("make test");
  });

  it("takes a provider and MCP servers from the environment (an object as JSON) and checks them", () => {
    const { repo, env } = fixture();
    const servers = { docs: { type: "http", url: "https://mcp.example.com/mcp" }, files: { command: "mcp-files", args: ["--ro"] } };
    const { config } = loadConfig({
      repoDir: repo,
      env: { ...env, HATLOOP_PROVIDER: "vertex", HATLOOP_MCP__SERVERS: JSON.stringify(servers) },
    });
    expect(config.provider).toBe("vertex");
    expect(config.mcp.servers).toEqual({
      docs: { type: "http", url: "https://mcp.example.com/mcp", headers: {} },
      files: { command: "mcp-files", args: ["--ro"], env: {} },
    });
    expect(
      errorOf(() => loadConfig({ repoDir: repo, env: { ...env, HATLOOP_MCP__SERVERS: '{"bad name": {"command": "x"}}' } })).message,
    ).toMatch(/mcp\.servers/);
  });

  it("names the bad key and where it came from, in one line", () => {
    const { repo, env } = fixture({ context: { warnPct: 150 } });
    const error = errorOf(() => loadConfig({ repoDir: repo, env }));
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(
      /^invalid config: context\.warnPct \(from \.hatloop\/config\.json|^invalid config: context\.warnPct \(from \/.*\.hatloop\/config\.json/,
    );
    expect(error.message).not.toContain("\n");
  });

  it("reports unknown keys, env variables by name, and broken JSON", () => {
    const typo = fixture({ maxIteration: 5 });
    expect(errorOf(() => loadConfig({ repoDir: typo.repo, env: typo.env })).message).toMatch(
      /invalid config: maxIteration \(from .*config\.json\): unknown key/,
    );
    const clean = fixture();
    expect(errorOf(() => loadConfig({ repoDir: clean.repo, env: { ...clean.env, HATLOOP_MAX_COST_USD: "lots" } })).message).toBe(
      "invalid config: maxCostUsd (from HATLOOP_MAX_COST_USD): Invalid input: expected number, received string",
    );
    expect(errorOf(() => loadConfig({ repoDir: clean.repo, env: clean.env, flags: { maxRuntime: "forever" } })).message).toMatch(
      /^invalid config: maxRuntime \(from command-line flags\)/,
    );
    const broken = fixture("{ not json");
    const error = errorOf(() => loadConfig({ repoDir: broken.repo, env: broken.env }));
    expect(error.message).toMatch(/^invalid config file .*config\.json: /);
    expect(error.exitCode).toBe(2);
  });

  it("refuses thresholds out of order", () => {
    const { repo, env } = fixture({ context: { warnPct: 95 } });
    expect(errorOf(() => loadConfig({ repoDir: repo, env })).message).toMatch(/context\.warnPct .*gaugePct <= warnPct <= compactPct/);
  });
});
