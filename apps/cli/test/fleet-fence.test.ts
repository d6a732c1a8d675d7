import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LeaseLostError } from "@hatloop/core";
import { openStore } from "@hatloop/db";
import { createTestDatabase } from "@hatloop/db/testing";
import { pushingGitPort } from "../src/fleet/workspace.js";
import { gitPort } from "../src/session/deps.js";
import { bareRemote } from "./support/fleet.js";

// A fenced-out runner on the checkpoint path (commit, push of the task branch, checkpoint row): once
// another runner has taken the session's lease and pushed, the old one can neither move the remote
// branch nor store a checkpoint; it stops with LeaseLostError.

const checkpoint = {
  reason: "interval" as const,
  iteration: 1,
  hat: "editor",
  scratchpad: "",
  context: { seqs: [] },
  contextTokens: 0,
  lastError: null,
  failedAt: null,
  recoveryHint: null,
  usage: {},
  state: {},
  handoff: null,
  gitCommit: null,
};

describe("fleet fencing on the checkpoint path", { tags: ["postgres"] }, () => {
  it("a runner whose lease was taken cannot push its branch or write a checkpoint", async () => {
    const database = await createTestDatabase({ migrated: true });
    const store = await openStore({ url: database.url });
    const { root, remote } = bareRemote();
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" }).trim();
    const branch = "hatloop/fenced";
    try {
      const base = git(root, "--git-dir", remote, "rev-parse", "main");
      const session = await store.sessions.create({
        id: "fenced-session",
        task: "t",
        title: "t",
        repoPath: remote,
        worktreePath: "",
        branch,
        baseCommit: base,
        inPlace: false,
        hat: "editor",
        model: "scripted:x",
        budgets: { maxIterations: 5, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null },
        config: {},
        contextWindow: 200_000,
        status: "running",
        pid: null,
        host: null,
      });
      const clone = (name: string) => {
        const dir = join(root, name);
        git(root, "clone", "-q", remote, dir);
        git(dir, "checkout", "-q", "-b", branch);
        return dir;
      };
      const [a, b] = [clone("a"), clone("b")];
      const epochA = (await store.sessions.acquireLease(session.id, "host:1", 60_000))!;
      const runnerA = pushingGitPort(gitPort, {
        sessionId: session.id,
        branch,
        workspace: { repoDir: join(root, "a-cache"), remoteTip: null },
        stillHeld: () => store.sessions.renewLease(session.id, epochA, 60_000),
      });
      writeFileSync(join(a, "one.txt"), "a1\n");
      const first = await runnerA.commitAll(a, "a: first checkpoint");
      expect(git(root, "--git-dir", remote, "rev-parse", branch)).toBe(first);
      // Runner B takes the session over and pushes its own checkpoint.
      const epochB = (await store.sessions.acquireLease(session.id, "host:2", 60_000, { takeOverFrom: "host:1" }))!;
      expect(epochB).toBe(epochA + 1);
      const runnerB = pushingGitPort(gitPort, {
        sessionId: session.id,
        branch,
        workspace: { repoDir: join(root, "b-cache"), remoteTip: null },
        stillHeld: () => store.sessions.renewLease(session.id, epochB, 60_000),
      });
      writeFileSync(join(b, "two.txt"), "b1\n");
      const second = await runnerB.commitAll(b, "b: takes over");
      expect(git(root, "--git-dir", remote, "rev-parse", branch)).toBe(second);
      // A goes on as if nothing happened: its push is refused, and so is its checkpoint row.
      writeFileSync(join(a, "three.txt"), "a2\n");
      await expect(runnerA.commitAll(a, "a: stale checkpoint")).rejects.toBeInstanceOf(LeaseLostError);
      await expect(
        store.fenced(session.id, epochA).checkpoints.append(session.id, { ...checkpoint, gitCommit: first }),
      ).rejects.toBeInstanceOf(LeaseLostError);
      expect(git(root, "--git-dir", remote, "rev-parse", branch)).toBe(second);
      expect(await store.checkpoints.latest(session.id)).toBeNull();
      // The holder's checkpoint is stored.
      await store.fenced(session.id, epochB).checkpoints.append(session.id, { ...checkpoint, gitCommit: second });
      expect((await store.checkpoints.latest(session.id))?.gitCommit).toBe(second);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe("fleet on the embedded database", () => {
  it("submit and worker refuse with one line naming --db, exit 2", async () => {
    const { runHatloop } = await import("./support/hatloop.js");
    const { root, remote } = bareRemote();
    const env = { HATLOOP_HOME: join(root, "home"), HATLOOP_CONFIG: join(root, "none.json") };
    for (const args of [["submit", "a task", "--repo", remote], ["worker"]]) {
      const ran = await runHatloop(args, env);
      expect(ran.code).toBe(2);
      expect(ran.stderr.trim().split("\n")).toHaveLength(1);
      expect(ran.stderr).toMatch(/needs a Postgres server .*--db postgres:\/\//);
    }
  });
});
