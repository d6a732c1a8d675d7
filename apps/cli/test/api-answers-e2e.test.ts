import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fakeError, startFakeAnthropic, type FakeAnthropic } from "@hatloop/model/testing";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// The answers of the real API that used to end a session, one after the other in one run of the
// real binary against the fake Messages API (which rejects, as the API does, any request that
// breaks its rules): whitespace-only text before a tool call, a prompt too long, a refusal, a tool
// call cut by the output limit, and a deprecated model id. The session must carry on through all of
// them and the user must be told about each, once.

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

describe("hatloop run against the API's awkward answers", () => {
  it("carries on through blank text, prompt too long, a refusal, a cut tool call and a deprecation warning", async () => {
    fake = await startFakeAnthropic({
      replies: [
        {
          content: [
            { type: "text", text: "\n\n" },
            { type: "tool_use", name: "read_file", input: { path: "src/data.js" } },
          ],
        },
        fakeError(400, { type: "invalid_request_error", message: "prompt is too long: 17000 tokens > 15000 maximum" }),
        {
          content: "Here is how to bypass",
          stopReason: "refusal",
          stopDetails: { category: "cyber", explanation: "This request was declined because it could enable cyber harm." },
        },
        {
          content: [
            { type: "text", text: "Writing it." },
            { type: "tool_use", name: "write_file", rawJson: '{"path":"src/value.js","content":"export const val' },
          ],
          stopReason: "max_tokens",
        },
        {
          content: [
            { type: "text", text: " " },
            { type: "tool_use", name: "write_file", input: { path: "src/value.js", content: "export const value = 2;\n" } },
          ],
        },
        { content: "Done for now." },
      ],
    });
    // A file big enough that the answer "prompt is too long" is true of the request (about 17k tokens) and
    // compacting to the 15k it names makes it smaller: a refused request is never sent again as it was.
    const { repo } = makeRepo({ "src/data.js": `export const data = [\n${"  { id: 1, name: 'row' },\n".repeat(2_000)}];\n` });
    const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
    // The summary of what compaction takes out is mechanical here: every request to the fake is one of the loop's.
    const env = {
      HATLOOP_HOME: home,
      HATLOOP_CONFIG: join(home, "none.json"),
      ANTHROPIC_API_KEY: "sk-test",
      ANTHROPIC_BASE_URL: fake.url,
      HATLOOP_CONTEXT__LLM_SUMMARY: "false",
    };
    const run = await runHatloop(
      ["run", "set value to 2", "--repo", repo, "--hat", "creator", "--model", "claude-sonnet-4-5", "--max-iterations", "4", "--plain"],
      env,
    );
    const out = run.stdout + run.stderr;

    expect(run.code, out).toBe(3); // the iteration budget, not a failure
    expect(fake.rejected).toEqual([]); // not one request the API would have refused
    const sent = fake.messageRequests();
    expect(sent.map((r) => JSON.stringify(r.body.messages)).filter((m) => /"text":"\s*"/.test(m))).toEqual([]);
    expect(sent.map((r) => r.body.max_tokens)).toEqual([8192, 8192, 8192, 8192, 64_000, 8192]);
    expect(JSON.stringify(sent[2]!.body).length).toBeLessThan(JSON.stringify(sent[1]!.body).length); // what was refused, compacted

    expect(out.match(/model notice: The model 'claude-sonnet-4-5' is deprecated/g)).toHaveLength(1);
    expect(out).not.toMatch(/^The model 'claude-sonnet-4-5' is deprecated/m); // the SDK's own console line
    expect(out).toContain(
      "! request too large for the model (17k tokens > 15k maximum); compacting and retrying the iteration (attempt 1)",
    );
    expect(out).toContain(
      "! model refused to continue (cyber: This request was declined because it could enable cyber harm.); the refused answer is archived",
    );
    expect(out).toContain("! output limit (8.2k tokens) cut the call to write_file; asking again with 64k");
    expect(out).toMatch(/paused: budget:iterations after 4 iterations/);
    expect(JSON.stringify(sent.at(-1)!.body.messages)).not.toContain("Here is how to bypass");
  });

  it("names an unreachable API once, with the cause, and the iteration it failed in", async () => {
    const closed = await startFakeAnthropic({ replies: [] });
    const url = closed.url;
    await closed.close();
    const { repo } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
    const env = {
      HATLOOP_HOME: home,
      HATLOOP_CONFIG: join(home, "none.json"),
      ANTHROPIC_API_KEY: "sk-test",
      ANTHROPIC_BASE_URL: url,
      HATLOOP_RETRY__MAX_ATTEMPTS: "2",
      HATLOOP_RETRY__MAX_DELAY: "10ms",
    };
    const run = await runHatloop(["run", "set value to 2", "--repo", repo, "--model", "claude-sonnet-5-5", "--plain"], env);
    const out = run.stdout + run.stderr;
    expect(run.code).toBe(1);
    const last = out.split("\n").find((l) => l.startsWith("hatloop: failed:"))!;
    expect(last).toMatch(
      new RegExp(
        `^hatloop: failed: model: cannot reach the API at ${url.replace(/\./g, "\\.")}: fetch failed: .*ECONNREFUSED.* \\(gave up after 2 attempts\\) in iteration 1, \\$0\\.00$`,
      ),
    );
    expect(last.split(url)).toHaveLength(2);
    expect(out).not.toContain("Connection error.");
    expect(out).not.toContain("after 0 iterations");
  });
});
