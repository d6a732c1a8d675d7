import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failpointArmed } from "@hatloop/core";
import type { GitClientOptions } from "./client.js";

// The failpoint "in-checkpoint-commit" (core/src/failpoint.ts): a kill -9 of hatloop's process group
// while the commit's git holds its locks. hatloop cannot time that from outside (git holds HEAD.lock
// for microseconds), so git does it: it runs the reference-transaction hook with "prepared" once it
// holds HEAD.lock and the branch's ref lock, before it commits them (git 2.39 has written and released
// index.lock by then). The hook kills the group led by hatloop, git and the hook included; if hatloop
// leads none, the kill fails and the commit goes on.

/** Client options for a commit's git: none unless HATLOOP_FAILPOINT names this failpoint. */
export function commitFailpoint(): GitClientOptions {
  if (!failpointArmed("in-checkpoint-commit")) return {};
  const hooks = mkdtempSync(join(tmpdir(), "hatloop-failpoint-"));
  const hook = join(hooks, "reference-transaction");
  writeFileSync(hook, `#!/bin/sh\n[ "$1" = prepared ] && kill -9 -${process.pid}\nexit 0\n`);
  chmodSync(hook, 0o755);
  return { config: [`core.hooksPath=${hooks}`], unsafe: { allowUnsafeHooksPath: true } };
}
