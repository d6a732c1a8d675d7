import { describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { isolationAvailable } from "./isolation.js";
import { runShell } from "./run-shell.js";

// An isolated command sees only its own processes: not the process that started it, nor that
// process's environment or command line. Where the machine cannot isolate, it runs as before.

const run = (command: string, isolate: boolean) =>
  runShell({ command, cwd: process.cwd(), timeoutMs: 60_000, headChars: 10_000, tailChars: 10_000, isolate });

describe.runIf(requireOrSkip(isolationAvailable(), "unprivileged user namespaces (unshare)"))("an isolated command", () => {
  it("cannot read its starter's environment or command line, nor see its processes", async () => {
    const peek = `cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo SEEN || echo HIDDEN; ls /proc | grep -c '^[0-9]'`;
    const open = await run(peek, false);
    expect(open.output).toMatch(/^SEEN\n/);
    const closed = await run(peek, true);
    expect(closed.exitCode).toBe(0);
    expect(closed.output).toMatch(/^HIDDEN\n/);
    // bash, ls and grep, maybe a subshell: the namespace holds nothing else.
    expect(Number(closed.output.split("\n")[1])).toBeLessThanOrEqual(4);
  });

  it("still works on the worktree, keeps its exit status, and is killed whole on timeout", async () => {
    const ok = await run("echo $((6 * 7)) > /dev/null; pwd; exit 3", true);
    expect(ok.exitCode).toBe(3);
    expect(ok.output.trim()).toBe(process.cwd());
    const started = Date.now();
    const slow = await runShell({
      command: "sleep 30 & sleep 30",
      cwd: process.cwd(),
      timeoutMs: 500,
      headChars: 100,
      tailChars: 100,
      isolate: true,
    });
    expect(slow.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(30_000); // ended by the kill, not by sleep running out
  });
});
