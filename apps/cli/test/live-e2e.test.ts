import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "@hatloop/db";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// Opt-in: a short real session of the built binary against the real Messages API, run only when
// ANTHROPIC_API_KEY is set (CI stays offline). Bounded to a few cents by --max-cost and a small model.

const key = process.env.ANTHROPIC_API_KEY;

describe.skipIf(!key)("hatloop run against the real API (live, opt-in)", () => {
  it("works a tiny task through real tool calls without failing, and stores usage and cost", async () => {
    const { repo } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-live-"));
    const env: Record<string, string> = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), ANTHROPIC_API_KEY: key! };
    if (process.env.ANTHROPIC_BASE_URL) env.ANTHROPIC_BASE_URL = process.env.ANTHROPIC_BASE_URL;
    const model = process.env.HATLOOP_LIVE_MODEL ?? "claude-haiku-4-5";
    const task = "Create the file hello.txt containing exactly the word hi, then call task_complete.";
    const run = await runHatloop(
      ["run", task, "--repo", repo, "--hat", "editor", "--model", model, "--max-iterations", "6", "--max-cost", "0.25", "--json"],
      env,
    );
    expect(run.code === 0 || run.code === 3, run.stderr).toBe(true); // completed, or stopped by a budget: never failed
    const store = await openStore({ url: join(home, "pglite") });
    try {
      const [session] = await store.sessions.list();
      expect(session!.costUsd).toBeGreaterThan(0);
      expect(session!.usage.outputTokens).toBeGreaterThan(0);
      if (run.code === 0) expect(existsSync(join(session!.worktreePath, "hello.txt"))).toBe(true);
    } finally {
      await store.close();
    }
  });
});
