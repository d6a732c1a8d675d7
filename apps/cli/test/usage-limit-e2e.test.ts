import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fakeError, startFakeAnthropic, type FakeAnthropic } from "@hatloop/model/testing";
import { HATLOOP_RE, runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// The account's usage limit through the real client and the real binary: the fake Messages API
// answers as the API does for a subscription whose window is used up (429, the unified limit
// "rejected", its reset in Unix seconds). The run waits for the reset (here: two seconds away),
// says so once and goes on; told not to wait, or with a runtime budget that ends before the reset
// (four hours away), it stops at once, resumably.

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

function usageLimit(resetAtSeconds: number) {
  return fakeError(429, {
    message: "This request would exceed your account's rate limit. Please try again later.",
    headers: {
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-reset": String(resetAtSeconds),
      "retry-after": String(Math.max(0, resetAtSeconds - Math.floor(Date.now() / 1000))),
    },
  });
}

async function run(replies: Parameters<typeof startFakeAnthropic>[0]["replies"], flags: string[]) {
  fake = await startFakeAnthropic({ replies });
  const { repo } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
  const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url };
  const args = ["run", "say hello", "--repo", repo, "--hat", "creator", "--model", "claude-haiku-4-5", "--max-iterations", "1"];
  return runHatloop([...args, "--plain", ...flags], env);
}

describe("hatloop run at a usage limit", () => {
  it("waits for the reset the API gives, says so once, and goes on by itself", async () => {
    const reset = Math.floor(Date.now() / 1000) + 2;
    const ran = await run([usageLimit(reset), { content: "Hello again." }], []);
    expect(ran.code, ran.stderr).toBe(3); // the iteration budget: the iteration was done
    expect(fake!.messageRequests()).toHaveLength(2);
    expect(ran.stdout.match(/usage limit reached/g)).toHaveLength(1);
    expect(ran.stdout).toMatch(/^ {3}! usage limit reached; waiting until \d\d:\d\d \([0-2]s\), then going on$/m);
    expect(ran.stdout).toContain("   | Hello again.");
    expect(ran.stdout).not.toMatch(/model: retry/);
    expect(ran.stdout).toMatch(/paused: budget:iterations after 1 iterations/);
  });

  it("stops at once, resumably, with --usage-limit stop", async () => {
    const reset = Math.floor(Date.now() / 1000) + 4 * 3600;
    const ran = await run([usageLimit(reset), { content: "never asked for" }], ["--usage-limit", "stop"]);
    expect(ran.code, ran.stderr).toBe(3);
    expect(fake!.messageRequests()).toHaveLength(1);
    expect(ran.stdout).toMatch(/! usage limit reached; it resets at .* \(\dh\d\dm\); stopping, as retry.usageLimit is stop/);
    const iso = new Date(reset * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    expect(ran.stdout).toContain(`hatloop: paused: usage limit (resets ${iso}) in iteration 1`);
    expect(ran.stdout).toMatch(new RegExp(`continue with: ${HATLOOP_RE} resume [0-9a-f]{8}$`, "m"));
  });

  it("never waits past the runtime budget: stops with the budget's reason", async () => {
    const reset = Math.floor(Date.now() / 1000) + 4 * 3600;
    const ran = await run([usageLimit(reset), { content: "never asked for" }], ["--max-runtime", "1h"]);
    expect(ran.code, ran.stderr).toBe(3);
    expect(fake!.messageRequests()).toHaveLength(1);
    expect(ran.stdout).toMatch(/! usage limit reached; it resets at .*, after the runtime budget ends \(\d+m\d\ds left\); stopping there/);
    expect(ran.stdout).toMatch(
      new RegExp(`paused: budget:runtime in iteration 1.*\\n\\s+continue with: ${HATLOOP_RE} resume [0-9a-f]{8} --max-runtime 1h`),
    );
  });
});
