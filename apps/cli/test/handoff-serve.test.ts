import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { beforeAll, describe, expect, it } from "vitest";
import { parseHandoffJson, parseHandoffYaml } from "@hatloop/context";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

const bin = new URL("../dist/bin.js", import.meta.url).pathname;
let env: Record<string, string>;
let sessionId: string;

beforeAll(async () => {
  const { repo, root } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-handoff-"));
  env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  const run = await runHatloop(["run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${writeScenario(root, 3, 0)}`], env);
  expect(run.code, run.stderr).toBe(0);
  sessionId = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout)[0].id;
}, 60_000);

describe("hatloop handoff", () => {
  it("prints the same handoff as markdown, JSON and YAML", async () => {
    const short = sessionId.slice(0, 8);
    const [md, json, yaml] = await Promise.all(["md", "json", "yaml"].map((f) => runHatloop(["handoff", short, "--format", f], env)));
    expect(md!.stdout).toMatch(/^# Handoff: write the notes/);
    expect(md!.stdout).toContain("`notes/1.txt`");
    const fromJson = parseHandoffJson(json!.stdout);
    expect(parseHandoffYaml(yaml!.stdout)).toEqual(fromJson);
    expect(fromJson).toMatchObject({ task_title: "write the notes", current_hat: "editor", branch: `hatloop/${short}` });
    expect(fromJson.created_files).toEqual(["notes/1.txt", "notes/2.txt", "notes/3.txt"]);
    expect(fromJson.head_commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it("prints an older checkpoint's handoff, and errors clearly", async () => {
    const first = await runHatloop(["handoff", sessionId, "--checkpoint", "1", "--format", "json"], env);
    expect(parseHandoffJson(first.stdout).created_files).toEqual([]);
    expect(await runHatloop(["handoff", sessionId, "--format", "pdf"], env)).toMatchObject({ code: 2 });
    const missing = await runHatloop(["handoff", sessionId, "--checkpoint", "99"], env);
    expect(missing).toMatchObject({ code: 1, stderr: `hatloop: checkpoint #99 of session ${sessionId.slice(0, 8)} has no handoff\n` });
  });
});

describe("hatloop serve", () => {
  it("serves sessions, one session and its handoff as JSON, with JSON errors", async () => {
    const server = spawn(process.execPath, [bin, "serve", "--port", "0"], { env: { PATH: process.env.PATH, ...env } });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: server.stdout }).once("line", resolve));
      const base = /http:\/\/127\.0\.0\.1:\d+/.exec(line)![0];
      const get = async (path: string, init?: RequestInit) => {
        const res = await fetch(`${base}${path}`, init);
        return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as Record<string, unknown> & unknown[] };
      };
      const list = await get("/api/sessions");
      expect(list.status).toBe(200);
      expect(list.type).toMatch(/^application\/json/);
      expect(list.body.map((s) => (s as { id: string }).id)).toEqual([sessionId]);
      const one = await get(`/api/sessions/${sessionId.slice(0, 8)}`);
      expect(one.body).toMatchObject({ id: sessionId, status: "completed", checklist: [], lastCheckpoint: { reason: "completion" } });
      const handoff = await get(`/api/sessions/${sessionId}/handoff`);
      expect(handoff.status).toBe(200);
      expect(handoff.body).toMatchObject({ schema: expect.any(String), task_title: "write the notes" });
      expect(await get("/api/sessions/nope/handoff")).toMatchObject({ status: 404, body: { error: 'no session matches "nope"' } });
      expect(await get("/api/other")).toMatchObject({ status: 404, body: { error: "no such endpoint: /api/other" } });
      expect(await get("/api/sessions", { method: "POST" })).toMatchObject({ status: 405 });
    } finally {
      server.kill("SIGINT");
    }
  });
});
