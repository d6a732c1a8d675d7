import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolResults } from "@hatloop/context";
import { requireOrSkip } from "@hatloop/core/testing";
import { openStore } from "@hatloop/db";
import { sandboxSupport } from "@hatloop/tools";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// A scripted session whose agent tries to get out: it writes the file beside the repository, reads
// the user's SSH key and calls a host off the allow-list, then does its work. In the sandbox (the
// default where the machine allows it) each attempt comes back as a tool error that says what the
// sandbox allows, nothing outside changes, and the session goes on to complete. With --sandbox off
// the same write goes through, so the test shows what the sandbox stops.

const KEY = "the users ssh key SANDBOXTESTKEY";
const support = sandboxSupport();

async function escape(sandbox: "auto" | "off") {
  const { root, repo } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-sandbox-home-"));
  const data = join(home, "hatloop-data");
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_ed25519"), KEY);
  const outside = join(root, "outside.txt");
  const turns = [
    { text: "Trying the file beside the repository.", tools: [{ name: "run_command", input: { command: `echo pwned > ${outside}` } }] },
    { text: "Reading the key.", tools: [{ name: "run_command", input: { command: `cat ${join(home, ".ssh", "id_ed25519")}` } }] },
    { text: "Calling out.", tools: [{ name: "run_command", input: { command: "curl -sS -m 30 https://example.com/" } }] },
    { text: "Doing the work inside.", tools: [{ name: "run_command", input: { command: "echo done > result.txt" } }] },
    { text: "Done.", tools: [{ name: "task_complete", input: { summary: "tried, then worked inside" } }] },
  ];
  const scenario = join(home, "scenario.jsonl");
  writeFileSync(scenario, turns.map((t) => JSON.stringify(t)).join("\n") + "\n");
  const env = {
    HOME: home,
    HATLOOP_HOME: data,
    HATLOOP_CONFIG: join(home, "none.json"),
    HATLOOP_MODEL: `scripted:${scenario}`,
  };
  const run = await runHatloop(["run", "try to get out", "--repo", repo, "--hat", "editor", "--plain", "--sandbox", sandbox], env);
  expect(run.code, run.stderr).toBe(0);
  const store = await openStore({ url: join(data, "pglite") });
  try {
    const [session] = await store.sessions.list();
    expect(session!.status).toBe("completed");
    const messages = await store.messages.range(session!.id, 1, 1000);
    const results = messages
      .flatMap(({ message }) => toolResults(message))
      .map((r) => ({ isError: r.is_error === true, text: JSON.stringify(r.content) }));
    const branch = session!.branch;
    return {
      results,
      outside: readFileSync(outside, "utf8"),
      result: execFileSync("git", ["show", `${branch}:result.txt`], { cwd: repo, encoding: "utf8" }),
    };
  } finally {
    await store.close();
  }
}

describe.runIf(requireOrSkip(support.ok, `a sandbox (${support.ok ? "" : support.reason})`))("hatloop run in the sandbox", () => {
  it("turns each escape into a tool error the model can act on, and the session completes", async () => {
    const { results, outside, result } = await escape("auto");
    const [write, read, call, work] = results;
    expect(write).toMatchObject({ isError: true });
    expect(write!.text).toContain("Read-only file system");
    expect(write!.text).toContain("[hatloop sandbox]");
    expect(read).toMatchObject({ isError: true });
    expect(read!.text).toContain("No such file or directory");
    expect(JSON.stringify(results)).not.toContain("SANDBOXTESTKEY");
    expect(call).toMatchObject({ isError: true });
    expect(call!.text).toContain("deny network-outbound example.com:443");
    expect(work).toMatchObject({ isError: false });
    expect(outside).toBe("TOP-SECRET-OUTSIDE-THE-WORKTREE\n");
    expect(result).toBe("done\n");
  });

  it("lets the same write through with --sandbox off", async () => {
    const { results, outside } = await escape("off");
    expect(results[0]).toMatchObject({ isError: false });
    expect(outside).toBe("pwned\n");
    expect(JSON.stringify(results[1])).toContain("SANDBOXTESTKEY");
  });
});
