import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "./cli.js";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (err.push(String(chunk)), true));
  return { out, err };
}

afterEach(() => vi.restoreAllMocks());

describe("pnpm bench", () => {
  it("answers a bad argument with one line on stderr and exit code 2", async () => {
    const { out, err } = capture();
    expect(await main(["--seed", "x"])).toBe(2);
    expect(err.join("")).toBe('bench: --seed must be an integer >= 0, got "x"\n');
    expect(out).toEqual([]);
  });

  it("answers an unreadable transcript the same way", async () => {
    const { err } = capture();
    expect(await main(["context", "--transcript", "/nonexistent/t.jsonl"])).toBe(2);
    expect(err.join("")).toBe("bench: /nonexistent/t.jsonl: cannot read (ENOENT)\n");
  });

  it("runs the context bench on a transcript and writes JSON and Markdown results", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-cli-"));
    const transcript = join(dir, "t.jsonl");
    const lines = [
      { role: "user", content: "Rename the helper." },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Editing." },
          { type: "tool_use", id: "t1", name: "edit_file", input: { path: "src/helper.ts", old_str: "a", new_str: "b" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "Edited." }] },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ];
    (await import("node:fs")).writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join("\n"));
    const { out } = capture();
    // --quick still generates the short synthetic sessions; the transcript is replayed too.
    expect(await main(["context", "--quick", "--transcript", transcript, "--out", dir, "--json"])).toBe(0);
    const printed = JSON.parse(out.join("")) as {
      context: {
        inputs: Array<{ input: string; strategies: Array<{ strategy: string; pathsHandoff: { present: number; total: number } }> }>;
      };
    };
    const mine = printed.context.inputs.find((i) => i.input === "t.jsonl")!;
    expect(mine.strategies.find((s) => s.strategy === "hatloop")!.pathsHandoff).toMatchObject({ present: 1, total: 1 });
    expect(JSON.parse(readFileSync(join(dir, "context-latest.json"), "utf8"))).toEqual(printed.context);
    expect(readFileSync(join(dir, "context-latest.md"), "utf8")).toContain("### Transcript t.jsonl");
  });

  it("runs the TUI bench and reports its figures from real renders", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-tui-"));
    const { out } = capture();
    expect(await main(["tui", "--quick", "--out", dir, "--json"])).toBe(0);
    const printed = JSON.parse(out.join("")) as { tui: { median: { events: number; renders: number; renderMsMedian: number } } };
    expect(printed.tui.median.events).toBe(2_000);
    // A burst is coalesced into a few renders, and each render takes measurable time.
    expect(printed.tui.median.renders).toBeGreaterThan(0);
    expect(printed.tui.median.renders).toBeLessThan(50);
    expect(printed.tui.median.renderMsMedian).toBeGreaterThan(0);
    expect(readFileSync(join(dir, "tui-latest.md"), "utf8")).toContain("## TUI bench");
  });

  it("writes to bench/out/, which git ignores, unless told to publish: the tracked bench/results/ stay as they are", async () => {
    const bench = fileURLToPath(new URL("..", import.meta.url));
    const published = join(bench, "results", "redaction-latest.json");
    const before = readFileSync(published, "utf8");
    const scratch = join(bench, "out", "redaction-latest.json");
    rmSync(scratch, { force: true });
    const { err } = capture();
    expect(await main(["redaction", "--quick", "--json"])).toBe(0);
    expect(err.join("")).toContain(`redaction: results in ${scratch}`);
    expect(JSON.parse(readFileSync(scratch, "utf8"))).toHaveProperty("timings");
    expect(readFileSync(published, "utf8")).toBe(before);
    // Ignored, so a checkout is as clean after a bench as before it.
    expect(execFileSync("git", ["check-ignore", scratch], { cwd: bench, encoding: "utf8" }).trim()).toBe(scratch);
    expect(existsSync(scratch)).toBe(true);
  });

  it("runs the redaction bench on every shape and size", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-redaction-"));
    const { out } = capture();
    expect(await main(["redaction", "--quick", "--out", dir, "--json"])).toBe(0);
    const printed = JSON.parse(out.join("")) as { redaction: { timings: Array<{ shape: string; bytes: number; ms: number }> } };
    expect(printed.redaction.timings.length).toBe(14);
    expect(new Set(printed.redaction.timings.map((t) => t.bytes))).toEqual(new Set([100_000, 1_000_000]));
    expect(readFileSync(join(dir, "redaction-latest.md"), "utf8")).toContain("| one identifier |");
  });
});
