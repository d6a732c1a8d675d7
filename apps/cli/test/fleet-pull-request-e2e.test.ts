import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createTestDatabase } from "@hatloop/db/testing";
import { fakeGh, FAKE_PR_URL } from "./support/fake-gh.js";
import { HATLOOP, runHatloop } from "./support/hatloop.js";
import { bareRemote, fleetScenario, startWorker } from "./support/fleet.js";

// A fleet session submitted with --pr: the worker that completes it opens the pull request (a fake
// gh on the worker's PATH), and runs its own hooks, not those of the machine that submitted it.
// Postgres (HATLOOP_TEST_DATABASE_URL), real processes, a bare repository as the remote.

describe("the fleet: --pr and hooks", { tags: ["postgres"] }, () => {
  it("the worker opens the pull request of a session submitted with --pr, and runs its own onComplete hook", async () => {
    const database = await createTestDatabase({ migrated: true });
    onTestFinished(() => database.drop());
    const { root, remote } = bareRemote();
    const base = { DATABASE_URL: database.url, HATLOOP_HOME: join(root, "home"), HATLOOP_CONFIG: join(root, "none.json") };
    const submitted = join(root, "submitter-hook.json");
    const ran = await runHatloop(
      [
        "submit",
        "write the notes",
        "--repo",
        remote,
        "--hat",
        "editor",
        "--model",
        `scripted:${fleetScenario(root, 1, 0)}`,
        "--pr",
        "--json",
      ],
      { ...base, HATLOOP_HOOKS__ON_COMPLETE: `cat > ${submitted}` },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const id = (JSON.parse(ran.stdout) as { id: string }).id;

    // Its options were set at submit: resume cannot add --pr to a fleet session.
    const again = await runHatloop(["resume", id.slice(0, 8), "--draft"], base);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`hatloop: session ${id.slice(0, 8)} runs on the fleet: give --pr or --draft to ${HATLOOP} submit\n`);

    const gh = fakeGh("ok");
    const workerHook = join(root, "worker-hook.json");
    const worker = startWorker("w1", {
      ...base,
      PATH: gh.path,
      HATLOOP_FLEET__POLL: "500ms",
      HATLOOP_HOOKS__ON_COMPLETE: `cat > ${workerHook}`,
    });
    try {
      const ended = await worker.waitFor((e) => e.event === "session ended" && e.session === id);
      expect(ended.status).toBe("completed");
      expect(worker.events.find((e) => e.event === "pr.result")).toMatchObject({ session: id, opened: true, url: FAKE_PR_URL });
    } finally {
      worker.kill("SIGTERM");
      await worker.done;
    }
    const branch = `hatloop/${id.slice(0, 8)}`;
    const create = gh.calls().find((c) => c.args[0] === "pr");
    expect(create?.args).toEqual(["pr", "create", "--head", branch, "--title", "write the notes", "--body-file", "-", "--base", "main"]);
    expect(create?.stdin).toMatch(/^## Task\n\nwrite the notes\n/);

    const logs = await runHatloop(["logs", id.slice(0, 8), "--json"], base);
    const events = logs.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    // The remote is a path: no web address, so no compare URL; the pull request was opened all the same.
    expect(events.find((e) => e.type === "pr.result")?.data).toMatchObject({
      opened: true,
      url: FAKE_PR_URL,
      compareUrl: null,
      pushed: true,
    });

    expect(JSON.parse(readFileSync(workerHook, "utf8"))).toMatchObject({ sessionId: id, hook: "onComplete", type: "session.end" });
    expect(existsSync(submitted)).toBe(false);
  });
});
