import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeBedrock, startFakeVertex, type FakeCloud } from "@hatloop/model/testing";
import { startFakeGceMetadata, type FakeMetadata } from "./support/fake-gce-metadata.js";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// `hatloop run --provider bedrock|vertex` through the real binary and the clouds' real SDKs, against
// local fakes of their endpoints, with credentials from each cloud's usual environment: static AWS
// keys (SigV4), and Google's Application Default Credentials from a fake metadata server.

let fakes: Array<FakeCloud | FakeMetadata> = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

const replies = [
  {
    content: [
      { type: "text" as const, text: "Writing the helper." },
      { type: "tool_use" as const, name: "write_file", input: { path: "src/double.js", content: "export const double = (x) => 2 * x;\n" } },
    ],
    usage: { input_tokens: 900, output_tokens: 40, cache_creation_input_tokens: 2000 },
  },
  {
    content: [{ type: "tool_use" as const, name: "task_complete", input: { summary: "added double()" } }],
    usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 2000 },
  },
];

function home(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-home-"));
  return { HATLOOP_HOME: dir, HATLOOP_CONFIG: join(dir, "none.json") };
}

/** No credentials but what a test gives: no instance metadata, no ~/.aws or gcloud files (HOME is fresh). */
const noAmbient = { AWS_EC2_METADATA_DISABLED: "true", METADATA_SERVER_DETECTION: "none" };

async function show(env: Record<string, string>): Promise<Record<string, unknown>> {
  const listed = await runHatloop(["ls", "--json"], env);
  const [session] = JSON.parse(listed.stdout) as Array<{ id: string }>;
  return JSON.parse((await runHatloop(["show", session!.id, "--json"], env)).stdout) as Record<string, unknown>;
}

describe("hatloop run on a cloud provider", () => {
  it("runs on Bedrock with AWS keys from the environment, and resume stays on Bedrock", async () => {
    const fake = await startFakeBedrock({ replies });
    fakes.push(fake);
    const { repo } = makeRepo();
    const env = {
      ...home(),
      ...noAmbient,
      AWS_REGION: "eu-west-1",
      AWS_ACCESS_KEY_ID: "AKIDFAKEEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "fake-secret",
      ANTHROPIC_BEDROCK_BASE_URL: fake.url,
    };
    const args = [
      "run",
      "add a double() helper",
      "--repo",
      repo,
      "--hat",
      "editor",
      "--provider",
      "bedrock",
      "--model",
      "claude-sonnet-4-5",
    ];
    const first = await runHatloop([...args, "--max-iterations", "1", "--plain"], env);
    expect(first.stderr).not.toMatch(/error|warn/i);
    expect(first.code, first.stdout + first.stderr).toBe(3);
    const resumed = await runHatloop(["resume", "--last", "--max-iterations", "3", "--plain"], env);
    expect(resumed.stderr).not.toMatch(/error|warn/i);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);

    const id = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    expect(fake.requests.map((r) => r.path)).toEqual([
      `/model/${id}/invoke-with-response-stream`,
      `/model/${id}/invoke-with-response-stream`,
    ]);
    expect(fake.requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFAKEEXAMPLE\/\d{8}\/eu-west-1\/bedrock\//);
    const session = await show(env);
    expect(session).toMatchObject({ status: "completed", model: id });
    // Regional endpoint: list prices + 10%. 1000 in, 60 out, 2000 cache writes, 2000 cache reads on Sonnet 4.5.
    const list = (1000 * 3 + 60 * 15 + 2000 * 3.75 + 2000 * 0.3) / 1e6;
    expect(session.costUsd).toBeCloseTo(list * 1.1, 9);
  });

  it("runs on Vertex AI with Google's default credentials (here: a metadata server)", async () => {
    const token = "ya29.fake-metadata-token";
    const metadata = await startFakeGceMetadata(token, "proj-e2e");
    const fake = await startFakeVertex({ replies, project: "proj-e2e", region: "global", token });
    fakes.push(metadata, fake);
    const { repo } = makeRepo();
    const env = {
      ...home(),
      CLOUD_ML_REGION: "global",
      ANTHROPIC_VERTEX_PROJECT_ID: "proj-e2e",
      ANTHROPIC_VERTEX_BASE_URL: fake.url,
      GCE_METADATA_HOST: metadata.host,
    };
    const run = await runHatloop(
      ["run", "add a double() helper", "--repo", repo, "--hat", "editor", "--provider", "vertex", "--model", "claude-haiku-4-5", "--plain"],
      env,
    );
    expect(run.stderr).not.toMatch(/error|warn/i);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(metadata.tokensServed()).toBeGreaterThan(0);
    const path = "/v1/projects/proj-e2e/locations/global/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict";
    expect(fake.requests.map((r) => r.path)).toEqual([path, path]);
    const session = await show(env);
    // The global endpoint: list prices. Haiku 4.5: $1 in, $5 out.
    expect(session.costUsd).toBeCloseTo((1000 * 1 + 60 * 5 + 2000 * 1.25 + 2000 * 0.1) / 1e6, 9);
  });

  it.each([
    [
      ["--provider", "bedrock", "--model", "claude-sonnet-4-5"],
      { AWS_REGION: "us-east-1" },
      /^hatloop: no AWS credentials for Bedrock \(.+\); set AWS_PROFILE/,
    ],
    [["--provider", "bedrock", "--model", "claude-sonnet-4-5"], {}, /^hatloop: --provider bedrock needs AWS_REGION/],
    [
      ["--provider", "bedrock", "--model", "claude-sonnet-5-5"],
      { AWS_REGION: "us-east-1" },
      /^hatloop: claude-sonnet-5-5 is not a model id Bedrock knows; pass --model, e.g. us\.anthropic\./,
    ],
    [["--provider", "vertex"], { ANTHROPIC_VERTEX_PROJECT_ID: "p" }, /^hatloop: --provider vertex needs CLOUD_ML_REGION/],
    [
      ["--provider", "vertex"],
      { CLOUD_ML_REGION: "global", ANTHROPIC_VERTEX_PROJECT_ID: "p" },
      /^hatloop: no Google credentials for Vertex AI \(.+\); run gcloud auth/,
    ],
    [["--provider", "azure"], {}, /^hatloop: .*provider/],
  ])("refuses %j in one line, exit 2, leaving nothing behind", async (flags, extra, message) => {
    const { repo } = makeRepo();
    const env = { ...home(), ...noAmbient, ...extra };
    const run = await runHatloop(["run", "a task", "--repo", repo, ...flags, "--plain"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse((await runHatloop(["ls", "--json"], env)).stdout)).toEqual([]);
    const worktrees = join(dirname(repo), ".hatloop-worktrees");
    expect(existsSync(worktrees) ? readdirSync(worktrees) : []).toEqual([]);
  });
});
