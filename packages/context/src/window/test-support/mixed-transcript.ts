import type { Message } from "../../messages.js";
import { assistant, result, use, user } from "./transcripts.js";

// A small hand-made history with everything pairing can trip on: text-only replies, parallel
// calls, an error result followed by text in the same user message, a result with an image,
// and a real user message between iterations. Result order: t1 … t7.

export function mixedTranscript(): Message[] {
  return [
    user("Fix the flaky login test."),
    assistant("Reading the test first.", use("t1", "read_file", { path: "test/login.test.ts" })),
    user(result("t1", "\n\nimport { login } from '../src/login';\n" + "x".repeat(2_000))),
    assistant(use("t2", "search", { pattern: "setTimeout" }), use("t3", "read_file", { path: "src/login.ts" })),
    user(result("t2", "src/login.ts:12: setTimeout(retry, 100)"), result("t3", "export async function login() {\n" + "y".repeat(3_000))),
    assistant("The retry uses a real timer."),
    user("[hatloop] Iteration 2: continue."),
    assistant(use("t4", "run_command", { command: "pnpm test" })),
    user(result("t4", "exit code: 1\nFAIL test/login.test.ts", true), { type: "text", text: "[Context: 71% | 142k/200k tokens]" }),
    assistant(
      "Running three things at once.",
      use("t5", "edit_file", { path: "src/login.ts", old_string: "setTimeout", new_string: "clock.setTimeout" }),
      use("t6", "screenshot", {}),
      use("t7", "run_command", { command: "pnpm test" }),
    ),
    user(
      result("t5", "ok"),
      result("t6", [
        { type: "text", text: "rendered page" },
        { type: "image", source: { type: "url", url: "https://x/y.png" } },
      ]),
      result("t7", "exit code: 0\nQUALITY_PASSED all green"),
    ),
    assistant("Done: the login test now uses the fake clock."),
  ];
}

export const MIXED_RESULT_IDS = ["t1", "t2", "t3", "t4", "t5", "t6", "t7"] as const;
