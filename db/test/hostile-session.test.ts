import { afterAll, beforeAll, expect, it } from "vitest";
import { textOf, toolResults, toolUses } from "@hatloop/context";
import { fakeTool, runFixture, type Turn } from "../../packages/core/src/test-support/loop-fixture.js";
import { openTestStore } from "../src/testing.js";
import { describeOnDrivers } from "./support/drivers.js";
import type { DbStore } from "../src/store.js";

// A whole session over the database, fed NULs and lone surrogates from every side: model text, a tool
// input, command output (`git ls-files -z`), a file with a NUL after 8 KiB, the scratchpad and the
// checklist. It used to fail at the first write, and a resume replayed the same turn and failed again.

const NUL = "\u0000";
const LONE = "\ud800";

const tools = [
  fakeTool("run_command", () => ({ isError: false, content: `src/a.ts${NUL}src/b.ts${NUL}` })),
  fakeTool("read_file", () => ({ isError: false, content: `${"x".repeat(8_200)}${NUL}binary${LONE}tail` })),
];

const firstRun: Turn[] = [
  { text: `Listing the files${NUL} with -z ${LONE}first`, tools: [{ name: "run_command", input: { command: `git ls-files -z${NUL}` } }] },
  { tools: [{ name: "read_file", input: { path: `data${NUL}.bin` } }] },
  { text: `CHECKLIST_ADD:1:read a${NUL}b\nSCRATCHPAD:## Current Plan\nread the ${LONE}binary` },
];

describeOnDrivers("a session fed NULs and lone surrogates on %s", (driver) => {
  let store: DbStore;
  beforeAll(async () => {
    store = await openTestStore(driver);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("runs, stores everything as received, and resumes", async () => {
    const run = await runFixture({ store, createSession: true, session: { hat: "creator" }, tools, maxIterations: 3, turns: firstRun });
    expect(run.outcome.reason).toBe("budget:iterations");
    const texts = run.messages.map((m) => textOf(m.message)).join("\n");
    expect(texts).toContain(`Listing the files${NUL} with -z ${LONE}first`);
    expect(run.messages.flatMap((m) => toolUses(m.message)).map((u) => u.input)).toEqual([
      { command: `git ls-files -z${NUL}` },
      { path: `data${NUL}.bin` },
    ]);
    expect(run.messages.flatMap((m) => toolResults(m.message)).map((r) => r.content)).toEqual([
      `src/a.ts${NUL}src/b.ts${NUL}`,
      `${"x".repeat(8_200)}${NUL}binary${LONE}tail`,
    ]);
    expect(run.session.scratchpad).toContain(`read the ${LONE}binary`);
    expect(await store.checklist.list(run.session.id)).toMatchObject([{ id: "1", description: `read a${NUL}b` }]);
    expect((await store.messages.search(run.session.id, "listing")).length).toBe(1);

    const resumed = await runFixture({ store, tools, maxIterations: 5, turns: [{ text: `still fine${NUL}` }, { text: "done" }] });
    expect(resumed.outcome.reason).toBe("budget:iterations");
    expect(resumed.messages.map((m) => textOf(m.message)).join("\n")).toContain(`still fine${NUL}`);
  });

  it("keeps a turn of 300 parallel reads with some 60,000 distinct words, past what one full-text entry holds", async () => {
    // Distinct identifiers, as 300 different source files have: one tsvector holds about 27,000.
    const read = fakeTool("read_file", (input) => ({
      isError: false,
      content: Array.from({ length: 200 }, (_, i) => `${String(input.path).replace(/\W/g, "")}ident${i}x${(i * 7919).toString(16)}`).join(
        " ",
      ),
    }));
    const reads: Turn = { tools: Array.from({ length: 300 }, (_, i) => ({ name: "read_file", input: { path: `src/module${i}.ts` } })) };
    const fresh = await openTestStore(driver);
    try {
      const run = await runFixture({
        store: fresh,
        createSession: true,
        session: { hat: "creator" },
        tools: [read],
        maxIterations: 2,
        turns: [reads, { text: "read them all" }],
      });
      expect(run.outcome.reason).toBe("budget:iterations");
      expect(run.messages.flatMap((m) => toolResults(m.message))).toHaveLength(300);
      expect(run.of("error")).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
