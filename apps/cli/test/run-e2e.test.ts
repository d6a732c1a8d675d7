import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { loopEventSchema, type LoopEvent } from "@hatloop/core";
import { toolResults, toolUses } from "@hatloop/context";
import { openStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { describeOnDrivers } from "../../../db/test/support/drivers.js";
import { fakeError, startFakeAnthropic, type FakeAnthropic } from "@hatloop/model/testing";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// A whole loop through the real binary and the real Anthropic SDK, against the fake Messages API:
// a 429, a stream cut mid-way, a tool that hangs, a path that escapes the worktree, four hats, real
// quality gates. Then the database is checked: messages, events, usage and cost.

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const replies = [
  fakeError(429, { headers: { "retry-after": "0" } }),
  {
    content: [
      { type: "text" as const, text: "Looking around first." },
      { type: "tool_use" as const, name: "read_file", input: { path: "../outside.txt" } },
    ],
  },
  { content: [{ type: "tool_use" as const, name: "run_command", input: { command: "sleep 30" } }] },
  { content: "This stream is cut before it ends, so the whole request is retried.", disconnectAfterEvents: 4 },
  {
    content: [
      { type: "text" as const, text: "CHECKLIST_ADD:1:value doubled\nDoubling the value." },
      { type: "tool_use" as const, name: "write_file", input: { path: "src/double.js", content: "export const double = (x) => 2 * x;\n" } },
    ],
  },
  { content: "CHECKLIST_DONE:1\nEVENT:implementation.done added double()" },
  { content: "Reviewed the diff.\nEVENT:review.approved" },
  { content: [{ type: "tool_use" as const, name: "task_complete", input: { summary: "added double()" } }] },
];

describeOnDrivers("hatloop run end to end on %s", (driver) => {
  it("survives a 429, a cut stream, a hanging tool and a path escape, and stores everything", async () => {
    fake = await startFakeAnthropic({ replies });
    const { repo } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
    // An empty database: this run is the one that migrates it (the other files start from a migrated copy).
    const database = driver === "postgres" ? await createTestDatabase() : null;
    const env = {
      HATLOOP_HOME: home,
      HATLOOP_CONFIG: join(home, "none.json"),
      ANTHROPIC_API_KEY: "sk-test",
      ANTHROPIC_BASE_URL: fake.url,
      HATLOOP_TOOLS__COMMAND_TIMEOUT: "1s",
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    try {
      const run = await runHatloop(
        ["run", "add a double() helper", "--repo", repo, "--hat", "creator", "--model", "claude-sonnet-5-5", "--json"],
        env,
      );
      expect(run.stderr).not.toMatch(/error/i);
      expect(run.code).toBe(0);
      const events = run.stdout
        .trim()
        .split("\n")
        .map((line) => loopEventSchema.parse(JSON.parse(line)) as LoopEvent);
      const of = <T extends LoopEvent["type"]>(t: T) => events.filter((e) => e.type === t) as Array<Extract<LoopEvent, { type: T }>>;

      expect(of("model.retry").map((e) => e.data.status)).toEqual([429, null]);
      const escape = of("tool.result").find((e) => e.data.name === "read_file")!;
      expect(escape.data).toMatchObject({ isError: true });
      expect(escape.data.preview).toMatch(/outside the worktree/);
      const hang = of("tool.result").find((e) => e.data.name === "run_command")!;
      expect(hang.data.isError).toBe(true);
      expect(hang.data.durationMs).toBeLessThan(30_000); // cut short by the 1 s command timeout, not run out (sleep 30)
      expect(hang.data.preview).toMatch(/timed out/i);
      expect(of("hat.change").map((e) => e.data.to)).toEqual(["critic", "editor"]);
      expect(of("gate.result")[0]?.data).toMatchObject({ passed: true });
      expect(of("session.end")[0]?.data).toMatchObject({ status: "completed", iterations: 6 });

      // What the API received: cache breakpoints, and the retried request identical to the cut one.
      const requests = fake.messageRequests();
      expect(requests).toHaveLength(8);
      const first = requests[1]!.body;
      expect((first.system as Array<{ cache_control?: unknown }>).at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      expect((first.tools as Array<{ cache_control?: unknown }>).at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      expect(requests[4]!.body.messages).toEqual(requests[3]!.body.messages);

      // What the database kept.
      const store = await openStore({ url: database?.url ?? join(home, "pglite") });
      try {
        const [session] = await store.sessions.list();
        expect(session).toMatchObject({ status: "completed", iteration: 6, hat: "editor" });
        const messages = await store.messages.range(session!.id, 1, 1000);
        expect(messages).toHaveLength(13);
        messages.forEach(({ message }, i) => {
          expect(message.role).toBe(i % 2 === 0 ? "user" : "assistant");
          const ids = toolUses(message).map((u) => u.id);
          if (ids.length) expect(toolResults(messages[i + 1]!.message).map((r) => r.tool_use_id)).toEqual(ids);
        });
        expect(JSON.stringify(messages)).not.toContain("TOP-SECRET");
        const responses = of("model.response");
        const sum = (k: "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens") =>
          responses.reduce((n, e) => n + e.data.usage[k], 0);
        expect(session!.usage).toEqual({
          inputTokens: sum("inputTokens"),
          outputTokens: sum("outputTokens"),
          cacheReadTokens: sum("cacheReadTokens"),
          cacheWriteTokens: sum("cacheWriteTokens"),
        });
        expect(session!.usage.inputTokens).toBeGreaterThan(0);
        expect(session!.costUsd).toBeCloseTo(
          responses.reduce((n, e) => n + e.data.costUsd, 0),
          10,
        );
        const stored = await store.events.after(session!.id, 0, 10_000);
        const types = (list: Array<{ type: string }>) => list.map((e) => e.type).filter((t) => t !== "model.text");
        expect(types(stored)).toEqual(types(events));
        expect((await store.checklist.list(session!.id))[0]).toMatchObject({ id: "1", status: "done" });
        expect((await store.checkpoints.latest(session!.id))?.reason).toBe("completion");
      } finally {
        await store.close();
      }
    } finally {
      await database?.drop();
    }
  });
});
