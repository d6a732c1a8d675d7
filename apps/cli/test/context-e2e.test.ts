import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { loopEventSchema, type LoopEvent } from "@hatloop/core";
import { toolResults, validatePairing } from "@hatloop/context";
import { openStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { describeOnDrivers } from "../../../db/test/support/drivers.js";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// A scripted session that reads big files until it crosses 80% and 90% of a small window, then
// recalls a word that only an early, long-removed tool result contained — through the real tools,
// the real stores and Postgres full-text search. The `zones` policy compacts at the fixed 90% to
// the guard's target, which middle-out removal reaches: this pins layer 0 end to end (the default
// cost policy's choices are pinned in core's policy and manager tests).

const FILES = 24;
const fileText = (i: number) =>
  `// module ${i}\n${"export const entry = { id: 1, name: 'padding for the window' };\n".repeat(30)}${i === MIDDLE ? "// the marmalade invariant: ids never repeat\n" : ""}`;
/** Middle-out removal stubs results from the middle first (the first and newest go last). */
const MIDDLE = 12;

describeOnDrivers("context management end to end on %s", (driver) => {
  it("warns, checkpoints, compacts, keeps every message, and recalls a removed result by a word in it", async () => {
    const files = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/m${i}.js`, fileText(i)]));
    const { repo, root } = makeRepo(files);
    const turns = Array.from({ length: FILES }, (_, i) =>
      JSON.stringify({ text: `Reading module ${i}.`, tools: [{ name: "read_file", input: { path: `src/m${i}.js` } }] }),
    );
    turns.push(JSON.stringify({ text: "What was that invariant?", tools: [{ name: "recall", input: { query: "marmalade" } }] }));
    turns.push(JSON.stringify({ tools: [{ name: "task_complete", input: { summary: "read everything" } }] }));
    const scenario = join(root, "scenario.jsonl");
    writeFileSync(scenario, `${turns.join("\n")}\n`);
    const home = mkdtempSync(join(tmpdir(), "hatloop-ctx-"));
    const database = driver === "postgres" ? await createTestDatabase({ migrated: true }) : null;
    const env = {
      HATLOOP_HOME: home,
      HATLOOP_CONFIG: join(home, "none.json"),
      HATLOOP_CONTEXT__WINDOW: "14000",
      HATLOOP_CONTEXT__POLICY: "zones",
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    try {
      const run = await runHatloop(
        ["run", "read the modules", "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const events = run.stdout
        .trim()
        .split("\n")
        .map((l) => loopEventSchema.parse(JSON.parse(l)) as LoopEvent);
      const of = <T extends LoopEvent["type"]>(t: T) => events.filter((e) => e.type === t) as Array<Extract<LoopEvent, { type: T }>>;
      const warn = of("checkpoint.saved").find((e) => e.data.reason === "warn-threshold");
      const compactions = of("context.compacted");
      expect(warn).toBeDefined();
      expect(compactions.length).toBeGreaterThan(0);
      expect(compactions[0]!.iteration).toBeGreaterThanOrEqual(warn!.iteration);
      expect(compactions.some((c) => c.data.strategy === "removal")).toBe(true);
      for (const c of compactions) expect(c.data.tokensAfter).toBeLessThan(14_000 * 0.9 * 0.8);
      expect(of("checkpoint.saved").filter((e) => e.data.reason === "compaction")).toHaveLength(compactions.length);

      const store = await openStore({ url: database?.url ?? join(home, "pglite") });
      try {
        const [session] = await store.sessions.list();
        const messages = await store.messages.range(session!.id, 1, 10_000);
        const conversation = messages.filter((m) => m.kind === "conversation");
        expect(conversation).toHaveLength(1 + 2 * (FILES + 2));
        expect(validatePairing(conversation.map((m) => m.message))).toEqual([]);
        // The middle result was stubbed in the live context, yet recall brought its words back.
        const checkpoint = await store.checkpoints.latest(session!.id);
        expect((checkpoint!.context as { stubbed: string[] }).stubbed).toContain(`toolu_s${MIDDLE + 1}_1`);
        const recall = toolResults(conversation.at(-3)!.message)[0]!;
        expect(String(recall.content)).toContain("marmalade invariant");
        expect(JSON.stringify(conversation[2 * MIDDLE + 2]!.message)).toContain("marmalade invariant");
      } finally {
        await store.close();
      }
    } finally {
      await database?.drop();
    }
  });
});
