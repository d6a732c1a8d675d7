import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "./args.js";
import { resultsDir } from "./results.js";

describe("bench arguments", () => {
  it("runs all four benches by default, with the documented defaults", () => {
    const args = parseArgs([], {});
    expect(args).toMatchObject({
      commands: ["context", "runtime", "tui", "redaction"],
      json: false,
      seed: 1,
      quick: false,
      pg: null,
      window: 200_000,
      pricePerMTok: 3,
      variants: [],
    });
  });

  it("reads every option", () => {
    const args = parseArgs(
      [
        "context",
        "--json",
        "--transcript",
        "a.jsonl",
        "--transcript",
        "b.jsonl",
        "--seed",
        "7",
        "--quick",
        "--window",
        "100000",
        "--price",
        "15",
        "--out",
        "/tmp/x",
        "--hatloop-variant",
        "targetPct=50,llmSummary=false",
      ],
      {},
    );
    expect(args).toMatchObject({
      commands: ["context"],
      json: true,
      transcripts: ["a.jsonl", "b.jsonl"],
      seed: 7,
      quick: true,
      window: 100_000,
      pricePerMTok: 15,
      outDir: "/tmp/x",
      variants: [{ targetPct: 50, llmSummary: false }],
    });
  });

  it("writes to bench/out/ by default, to bench/results/ with --publish, to DIR with --out DIR", () => {
    const bench = fileURLToPath(new URL("..", import.meta.url));
    expect(resultsDir(parseArgs([], {}))).toBe(join(bench, "out/"));
    expect(resultsDir(parseArgs(["--publish"], {}))).toBe(join(bench, "results/"));
    expect(resultsDir(parseArgs(["--out", "/tmp/x"], {}))).toBe("/tmp/x");
  });

  it("takes Postgres from --pg or HATLOOP_TEST_DATABASE_URL", () => {
    expect(parseArgs(["runtime"], { HATLOOP_TEST_DATABASE_URL: "postgres://a@b/c" }).pg).toBe("postgres://a@b/c");
    expect(parseArgs(["runtime", "--pg", "postgresql://x/y"], {}).pg).toBe("postgresql://x/y");
  });

  it("runs the fleet bench only when named, with Postgres from --pg or HATLOOP_TEST_DATABASE_URL", () => {
    expect(parseArgs([], { HATLOOP_TEST_DATABASE_URL: "postgres://a@b/c" }).commands).not.toContain("fleet");
    expect(parseArgs(["fleet", "--quick"], { HATLOOP_TEST_DATABASE_URL: "postgres://a@b/c" })).toMatchObject({
      commands: ["fleet"],
      quick: true,
      pg: "postgres://a@b/c",
    });
    expect(parseArgs(["fleet", "--pg", "postgres://x/y"], {})).toMatchObject({ commands: ["fleet"], pg: "postgres://x/y" });
  });

  it.each([
    [["fleet"], "fleet needs a Postgres server: pass --pg postgres://... or set HATLOOP_TEST_DATABASE_URL"],
    [["fleet", "fleet", "--pg", "postgres://x/y"], "fleet given twice"],
    [["bogus"], 'unknown command "bogus"'],
    [["--nope"], "unknown option --nope"],
    [["--seed"], "--seed needs a value"],
    [["--seed", "-1"], "--seed must be an integer >= 0"],
    [["--seed", "1.5"], "--seed must be an integer >= 0"],
    [["--window", "10"], "--window must be an integer >= 1000"],
    [["--price", "free"], "--price must be a positive number"],
    [["--pg", "mysql://x"], "--pg must be a postgres:// URL"],
    [["--publish", "--out", "/tmp/x"], "--publish writes to bench/results/: give it or --out DIR, not both"],
    [["runtime", "--transcript", "a.jsonl"], "--transcript and --corpus only apply to the context bench"],
    [["context", "context"], "context given twice"],
    [["tui", "tui"], "tui given twice"],
    [["--hatloop-variant", "targetPct"], "expects KEY=VALUE pairs"],
    [["--hatloop-variant", "gaugePct=95"], "--hatloop-variant gaugePct=95: warnPct: expected gaugePct <= warnPct <= compactPct"],
    [["--hatloop-variant", "bogus=1"], "--hatloop-variant bogus=1"],
  ])("rejects %j with a one-line usage error", (argv, message) => {
    expect(() => parseArgs(argv, {})).toThrow(UsageError);
    expect(() => parseArgs(argv, {})).toThrow(message);
  });
});
