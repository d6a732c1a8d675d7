import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { createTestDatabase } from "@hatloop/db/testing";
import { startFakeAnthropic, type FakeAnthropic, type FakeContent, type FakeMessageReply } from "@hatloop/model/testing";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { dumpDatabase, leaks, plantSecrets } from "./support/secrets.js";
import { hasTmux, Tmux } from "./support/tmux.js";

// One secret of each kind (Anthropic key, GitHub token, AWS key id, a database password in a URL,
// a random high-entropy token, a private key) planted in every input channel of a real run of the
// built binary against the fake Messages API: the task, model text streamed in small fragments
// across many event flushes, tool input, tool output, the checklist (signal and tool), the
// scratchpad (signal and tool), remember (signal and tool), steering (typed in the TUI), the agent's
// question (ask_user) and the person's answer (`hatloop answer`, left undelivered on the session), the
// environment of the hatloop process (which the agent dumps into a committed file), a value of the
// config file (a gate command), and the database URL passed as `--db` (with its password on Postgres;
// the agent also lists the processes' command lines). Then everything stored, printed, committed and
// sent to the lifecycle hooks (a webhook and a command on every hook) is searched: no secret may be
// found anywhere.

const bin = new URL("../dist/bin.js", import.meta.url).pathname;
/** Whether the steering is typed in the TUI (tmux): left out on a machine without tmux, never under CI. */
const inTheTui = requireOrSkip(hasTmux(), "tmux");
const secrets = plantSecrets();
const outputs: Record<string, string> = {};
let fake: FakeAnthropic;
let env: Record<string, string>;
let databaseUrl: string;
let dropDatabase = async () => {};
let repo: string;
let id: string;
let hookServer: Server;
/** Every body POSTed to the webhook, and the directory the hook command writes each stdin to (a file each). */
const webhookBodies: string[] = [];
let hookCommandDir: string;
const hookCommandBodies = () => readdirSync(hookCommandDir).map((f) => readFileSync(join(hookCommandDir, f), "utf8"));

/** Text streamed a few characters at a time, slowly enough to span many 150 ms event flushes. */
function streamed(text: string, tools: FakeContent[] = []): FakeMessageReply {
  return { content: [{ type: "text", text }, ...tools], chunkSize: 5, eventDelayMs: 15 };
}

function toolUse(name: string, input: unknown) {
  return { type: "tool_use" as const, name, input };
}

async function hatloop(name: string, args: string[], runEnv = env) {
  const ran = await runHatloop(args, runEnv);
  outputs[name] = ran.stdout + ran.stderr;
  return ran;
}

beforeAll(async () => {
  const made = makeRepo();
  repo = made.repo;
  const outside = join(made.root, "credentials.txt");
  writeFileSync(outside, secrets.prose);
  fake = await startFakeAnthropic({
    replies: [
      // run --plain: text with every secret and a checklist signal; a failing command whose input and output hold secrets and that dumps the environment into a file
      streamed(`Found these:\n${secrets.prose}CHECKLIST_ADD:1:rotate ${secrets.githubToken}\n`, [
        toolUse("run_command", {
          command: `echo "deploy with ${secrets.githubToken}"; cat ${outside}; env > env.txt; env | sort; ps -eo args; exit 1`,
        }),
      ]),
      streamed(`SCRATCHPAD:\n## Notes\n${secrets.prose}`, [
        toolUse("update_checklist", {
          add: [{ id: "2", description: `revoke ${secrets.awsKeyId}` }],
          failed: [{ id: "1", reason: `leaked ${secrets.entropyToken}` }],
        }),
      ]),
      streamed(`MEMORY:pitfall:the database is postgres://app:${secrets.dbPassword}@db.internal:5432/app\n`, [
        toolUse("update_scratchpad", { content: `## Plan\n${secrets.prose}` }),
        toolUse("remember", { type: "pitfall", text: `the key is ${secrets.anthropicKey}` }),
      ]),
      // resume --json: model text again, for the JSON printer
      streamed(`Continuing with\n${secrets.prose}`),
      // resume in the TUI: a slow answer to pause on, then one after the steering
      ...(inTheTui ? [{ content: "Working on it, slowly.", chunkSize: 2, eventDelayMs: 300 }, { content: "Noted." }] : []),
      // resume --plain: the agent asks a question with secrets in it; the run ends waiting for the answer
      streamed("One question first.", [toolUse("ask_user", { question: `Push with ${secrets.anthropicKey} or ${secrets.githubToken}?` })]),
    ],
  });
  const home = mkdtempSync(join(tmpdir(), "hatloop-secrets-"));
  if (process.env.HATLOOP_TEST_DATABASE_URL) {
    const database = await createTestDatabase({ migrated: true });
    const url = new URL(database.url);
    url.password = secrets.dbPassword; // the local test server trusts; the password only has to be in the URL
    databaseUrl = url.toString();
    dropDatabase = () => database.drop();
  } else {
    databaseUrl = join(home, "pglite");
  }
  hookServer = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      webhookBodies.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, "127.0.0.1", r));
  const webhookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
  hookCommandDir = mkdtempSync(join(tmpdir(), "hatloop-secrets-hooks-"));
  const targets = [webhookUrl, `cat > "$(mktemp -p ${hookCommandDir})"`];
  const hooks = { onIteration: targets, onPause: targets, onWaiting: targets, onFail: targets, onComplete: targets };
  const configFile = join(home, "config.json");
  writeFileSync(configFile, JSON.stringify({ gates: { test: `true # ${secrets.oneLine}` }, hooks }));
  env = {
    HATLOOP_HOME: home,
    HATLOOP_CONFIG: configFile,
    HATLOOP_CONTEXT__LLM_SUMMARY: "false",
    DATABASE_URL: databaseUrl,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: secrets.anthropicKey,
    GITHUB_TOKEN: secrets.githubToken,
    AWS_ACCESS_KEY_ID: secrets.awsKeyId,
    AWS_SECRET_ACCESS_KEY: secrets.entropyToken,
    PGPASSWORD: secrets.dbPassword,
    SSH_PRIVATE_KEY: secrets.privateKey,
  };

  const { DATABASE_URL: _url, ...withoutUrl } = env;
  const run = await hatloop(
    "run --plain",
    [
      "--db",
      databaseUrl,
      "run",
      `fix the leak: ${secrets.oneLine}`,
      "--repo",
      repo,
      "--hat",
      "creator",
      "--max-iterations",
      "3",
      "--plain",
    ],
    withoutUrl,
  );
  expect(run.code, run.stderr).toBe(3);
  id = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout)[0].id;
  const resumed = await hatloop("resume --json", ["resume", id, "--max-iterations", "1", "--json"]);
  expect(resumed.code, resumed.stderr).toBe(3);
  if (inTheTui) await steerInTheTui();
  const asked = await hatloop("resume --plain (ask_user)", ["resume", id, "--max-iterations", "1", "--plain"]);
  expect(asked.code, asked.stderr).toBe(4);
  const answered = await hatloop("answer", ["answer", id.slice(0, 8), `use ${secrets.awsKeyId} with password=${secrets.dbPassword}`]);
  expect(answered.code, answered.stderr).toBe(0);
  expect(fake.rejected).toEqual([]);
});

afterAll(async () => {
  hookServer?.closeAllConnections();
  await new Promise((r) => hookServer?.close(r));
  await fake?.close();
  await dropDatabase();
});

/** Resumes in the TUI (tmux), pauses, types the secrets as steering, continues to the budget. */
async function steerInTheTui(): Promise<void> {
  const tmux = new Tmux();
  try {
    const vars = Object.entries({ ...env, TERM: "xterm-256color" })
      .map(([k, v]) => `${k}='${v.replace(/'/g, "'\\''")}'`)
      .join(" ");
    tmux.run(
      "new-session",
      "-d",
      "-s",
      "s",
      "-x",
      "160",
      "-y",
      "40",
      `env -u CI -u FORCE_COLOR ${vars} ${process.execPath} ${bin} resume ${id} --max-iterations 2; echo "[exit $?]"; sleep 60`,
    );
    await tmux.waitFor("s:0.0", /-- iteration \d+ · creator --/);
    tmux.keys("s:0.0", "p"); // the loop holds after this (slow) iteration, before the next
    await tmux.waitFor("s:0.0", /paused \(paused by the user\)/);
    tmux.keys("s:0.0", ":");
    await tmux.waitFor("s:0.0", /steer>/);
    tmux.keys("s:0.0", "-l", `use ${secrets.oneLine}`);
    tmux.keys("s:0.0", "Enter");
    await tmux.waitFor("s:0.0", /steering queued/);
    tmux.keys("s:0.0", "p");
    await tmux.waitFor("s:0.0", /\[exit 3\]/);
  } finally {
    tmux.kill();
  }
}

/** GETs the serve API's three endpoints. */
async function serveResponses(): Promise<string> {
  const server = spawn(process.execPath, [bin, "serve", "--port", "0"], { env: { PATH: process.env.PATH, ...env } });
  try {
    const line = await new Promise<string>((resolve) => createInterface({ input: server.stdout }).once("line", resolve));
    const base = /http:\/\/127\.0\.0\.1:\d+/.exec(line)![0];
    const bodies = await Promise.all(["", `/${id}`, `/${id}/handoff`].map(async (p) => (await fetch(`${base}/api/sessions${p}`)).text()));
    return bodies.join("\n");
  } finally {
    server.kill("SIGINT");
  }
}

describe("a secret planted in every channel", () => {
  it("reached every channel (the scan below is not vacuous)", async () => {
    const dump = await dumpDatabase(databaseUrl);
    for (const label of ["anthropic-key", "github-token", "aws-access-key", "url-password", "high-entropy", "private-key"])
      expect(dump.messages).toContain(`[REDACTED:${label}]`);
    if (inTheTui) expect(dump.events).toContain("use anthropic [REDACTED:anthropic-key]"); // the steering
    expect(dump.memories).toContain("the key is [REDACTED:anthropic-key]");
    expect(dump.checklist_items).toContain("revoke [REDACTED:aws-access-key]");
    expect(dump.sessions).toContain("true # anthropic [REDACTED:anthropic-key]"); // the config file's gate command
    // The agent's question and the answer not yet delivered, on the session.
    expect(dump.sessions).toContain("Push with [REDACTED:anthropic-key] or [REDACTED:github-token]?");
    expect(dump.sessions).toContain("use [REDACTED:aws-access-key] with password=[REDACTED:password]");
    // The --db flag's password, in the session's configuration.
    if (process.env.HATLOOP_TEST_DATABASE_URL) expect(dump.sessions).toMatch(/databaseUrl\W+postgres:\/\/[^,]*\[REDACTED:url-password\]/);
  });

  it("reached the hooks: the agent's question went to onWaiting, redacted, in data and in text", () => {
    for (const bodies of [webhookBodies, hookCommandBodies()]) {
      const waiting = bodies.map((b) => JSON.parse(b) as { hook: string; text: string }).filter((b) => b.hook === "onWaiting");
      expect(waiting).toEqual([
        expect.objectContaining({
          data: { status: "waiting", reason: "Push with [REDACTED:anthropic-key] or [REDACTED:github-token]?" },
          text: expect.stringContaining("Push with [REDACTED:anthropic-key] or [REDACTED:github-token]?"),
        }),
      ]);
      expect(bodies.map((b) => (JSON.parse(b) as { hook: string }).hook)).toEqual(expect.arrayContaining(["onIteration", "onPause"]));
    }
  });

  it("is sent nowhere: every webhook delivery and everything a hook command got on its stdin", () => {
    expect(leaks(webhookBodies.join("\n"), secrets), "webhook").toEqual([]);
    expect(leaks(hookCommandBodies().join("\n"), secrets), "hook command").toEqual([]);
  });

  it("is stored nowhere: every row of every table", async () => {
    const dump = await dumpDatabase(databaseUrl);
    expect(Object.keys(dump)).toEqual(
      expect.arrayContaining(["sessions", "messages", "checkpoints", "events", "checklist_items", "memories"]),
    );
    for (const [table, rows] of Object.entries(dump)) expect(leaks(rows, secrets), table).toEqual([]);
  });

  it("is printed nowhere: run and resume output, logs, watch, show, ls, handoff, serve", async () => {
    const sid = id.slice(0, 8);
    for (const [name, args] of [
      ["logs", ["logs", sid]],
      ["logs --json", ["logs", sid, "--json"]],
      ["watch --plain", ["watch", sid, "--plain"]],
      ["watch --json", ["watch", sid, "--json"]],
      ["show", ["show", sid]],
      ["show --json", ["show", sid, "--json"]],
      ["ls --plain", ["ls", "--plain"]],
      ["ls --json", ["ls", "--json"]],
      ["handoff", ["handoff", sid]],
      ["handoff json", ["handoff", sid, "--format", "json"]],
      ["handoff yaml", ["handoff", sid, "--format", "yaml"]],
    ] as const)
      await hatloop(name, [...args]);
    outputs.serve = await serveResponses();
    expect(outputs.logs).toContain("[REDACTED:anthropic-key]"); // streamed text was shown, redacted
    for (const [name, text] of Object.entries(outputs)) expect(leaks(text, secrets), name).toEqual([]);
  });

  it("is committed nowhere: the task branch, and the environment the agent dumped", () => {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
    const history = git("log", "-p", "--all", "--format=%H %s%n%b");
    expect(history).toContain("env.txt");
    expect(leaks(history, secrets)).toEqual([]);
    expect(history).not.toMatch(/^\+(GITHUB_TOKEN|AWS_SECRET_ACCESS_KEY|PGPASSWORD|ANTHROPIC_API_KEY|DATABASE_URL|SSH_PRIVATE_KEY)=/m);
  });
});
