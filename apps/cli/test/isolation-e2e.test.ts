import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { createTestDatabase } from "@hatloop/db/testing";
import { describeOnDrivers } from "../../../db/test/support/drivers.js";
import { isolationAvailable } from "@hatloop/tools";
import { startFakeAnthropic, type FakeAnthropic } from "@hatloop/model/testing";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// A process can read the environment and command line of every process of its user. The agent's
// command reads all it can see (every /proc/<pid>/environ and cmdline, and its ancestors') into a file
// the run commits: with tools.isolate=off it finds hatloop's API key and the --db password; isolated
// (the default, where the machine allows it) it finds neither, and the run goes on as usual.

const KEY = "sk-ant-api03-ISOLATEDKEY0123456789abcdefghijklmnopqrstuvwxyz";
const PASSWORD = "is0lated-pa55word";

const PEEK =
  'for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr "\\0" "\\n" < $f 2>/dev/null; echo; done > seen.txt; ' +
  'p=$PPID; while [ "$p" -gt 1 ]; do tr "\\0" "\\n" < /proc/$p/environ >> seen.txt; tr "\\0" "\\n" < /proc/$p/cmdline >> seen.txt; ' +
  'p=$(awk "/^PPid:/ {print \\$2}" /proc/$p/status); done; echo looked';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function peek(driver: string, isolate: "auto" | "off"): Promise<string> {
  fake = await startFakeAnthropic({
    replies: [
      { content: [{ type: "tool_use", name: "run_command", input: { command: PEEK } }] },
      { content: [{ type: "tool_use", name: "task_complete", input: { summary: "looked" } }] },
    ],
  });
  // On Postgres, a password in the --db URL on hatloop's command line (trust authentication ignores it).
  const database = driver === "postgres" ? await createTestDatabase({ migrated: true }) : null;
  const db = database ? ["--db", database.url.replace("://postgres@", `://postgres:${PASSWORD}@`)] : [];
  const { repo } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
  const env = {
    HATLOOP_HOME: home,
    HATLOOP_CONFIG: join(home, "none.json"),
    HATLOOP_TOOLS__ISOLATE: isolate,
    // The sandbox has a PID namespace of its own too: off, so that isolation alone is what is tested.
    HATLOOP_TOOLS__SANDBOX__MODE: "off",
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: fake.url,
  };
  const run = await runHatloop([...db, "run", "look around", "--repo", repo, "--hat", "editor", "--plain"], env).finally(() =>
    database?.drop(),
  );
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  expect(JSON.stringify(fake.messageRequests()[0]!.headers)).toContain(KEY); // hatloop itself has the key
  const branch = execFileSync("git", ["branch", "--list", "hatloop/*", "--format=%(refname:short)"], {
    cwd: repo,
    encoding: "utf8",
  }).trim();
  return execFileSync("git", ["show", `${branch}:seen.txt`], { cwd: repo, encoding: "utf8" });
}

describeOnDrivers(
  "the agent's commands, isolated, on %s",
  { skipIf: !requireOrSkip(isolationAvailable(), "unprivileged user namespaces (unshare)") },
  (driver) => {
    it("see hatloop's key (and --db password) when tools.isolate is off", async () => {
      const seen = await peek(driver, "off");
      expect(seen).toContain(KEY);
      if (driver === "postgres") expect(seen).toContain(PASSWORD);
    });

    it("see neither by default", async () => {
      const seen = await peek(driver, "auto");
      expect(seen).toMatch(/look around|PATH=/); // it did read what it could see
      expect(seen).not.toContain(KEY);
      expect(seen).not.toContain(PASSWORD);
    });
  },
);
