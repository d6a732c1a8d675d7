import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loopEventSchema } from "@hatloop/core";
import { runHatloop } from "./support/hatloop.js";
import { newSession } from "./support/session.js";
import { withStore } from "./support/store.js";

// Events read back from the database are checked against the event union: a damaged row, or one a
// newer hatloop wrote, is skipped with one line on stderr, and the rest of the log still prints.
// Rows without a version (written before events were versioned) read as version 1.

let env: Record<string, string>;
const id = "5e55a0e0-0000-4000-8000-000000000001";

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), "hatloop-events-"));
  env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  await withStore(home, async (store) => {
    await store.sessions.create(newSession({ id, status: "completed" }));
    await store.events.append(id, [
      { iteration: 1, type: "iteration.start", payload: { hat: "planner" }, version: 1 },
      { iteration: 1, type: "tool.call", payload: { id: "t1", name: "read_file", summary: 42 }, version: 1 },
      { iteration: 1, type: "tool.call", payload: { id: "t2", name: "read_file", summary: "b.ts" }, version: 1 },
      { iteration: 1, type: "tool.call", payload: { id: 3 }, version: 1 },
      { iteration: 1, type: "hat.change", payload: { from: "planner", to: "creator", topic: "plan.complete" } },
      { iteration: 2, type: "model.text", payload: { text: "from the future" }, version: 2 },
      { iteration: 2, type: "session.end", payload: { status: "completed", reason: "done", iterations: 2, costUsd: 0 }, version: 1 },
    ]);
  });
});

describe("stored events crossing into logs and watch", () => {
  it.each([["logs"], ["watch", "--plain"]])("%s prints the readable ones and says once what it skipped", async (...args) => {
    const out = await runHatloop([args[0]!, id.slice(0, 8), ...args.slice(1)], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("b.ts");
    expect(out.stdout).toContain("creator");
    expect(out.stdout).not.toContain("from the future");
    const lines = out.stderr.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(
        /^hatloop: skipped stored event #\d+ "tool\.call" \(iteration 1\): data\.summary: .*; later unreadable "tool\.call" events are skipped without a note$/,
      ),
      expect.stringMatching(
        /^hatloop: skipped stored event #\d+ "model\.text" \(iteration 2\): written by a newer hatloop \(event schema version 2; this one reads version 1\); upgrade hatloop/,
      ),
    ]);
  });

  it("logs --json prints only valid events, each with its version", async () => {
    const out = await runHatloop(["logs", id, "--json"], env);
    expect(out.code, out.stderr).toBe(0);
    const events = out.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { v: number; type: string });
    expect(events.map((e) => e.type)).toEqual(["iteration.start", "tool.call", "hat.change", "session.end"]);
    expect(events.every((e) => e.v === 1 && loopEventSchema.safeParse(e).success)).toBe(true);
  });
});
