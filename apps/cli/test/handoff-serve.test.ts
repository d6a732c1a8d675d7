import { mkdtempSync } from "node:fs";
import { hostname, networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
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
  const run = await runHatloop(
    ["run", "write the notes", "--repo", repo, "--hat", "editor", "--model", `scripted:${writeScenario(root, 3, 0)}`],
    env,
  );
  expect(run.code, run.stderr).toBe(0);
  sessionId = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout)[0].id;
});

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
        return {
          status: res.status,
          type: res.headers.get("content-type"),
          body: (await res.json()) as Record<string, unknown> & unknown[],
        };
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

/** Starts `hatloop serve` and returns its base URL; the caller kills it. */
async function startServe(args: string[], extraEnv: Record<string, string> = {}): Promise<{ server: ChildProcess; port: number }> {
  const server = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], { env: { PATH: process.env.PATH, ...env, ...extraEnv } });
  const line = await new Promise<string>((resolve) => createInterface({ input: server.stdout }).once("line", resolve));
  return { server, port: Number(/:(\d+)\//.exec(line)![1]) };
}

/** A GET with any headers, Host included (fetch does not let a caller set Host), sent to `address`. */
function rawGet(
  port: number,
  path: string,
  headers: Record<string, string>,
  address = "127.0.0.1",
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, path, headers }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("hatloop serve: who may read it, and what it shows", () => {
  it("refuses another Host (DNS rebinding) and answers its own names", async () => {
    const { server, port } = await startServe([]);
    try {
      expect((await rawGet(port, "/api/sessions", { host: "evil.example:" + port })).status).toBe(403);
      expect((await rawGet(port, "/api/sessions", { host: "evil.example" })).status).toBe(403);
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
        expect((await rawGet(port, "/api/sessions", { host })).status).toBe(200);
    } finally {
      server.kill("SIGINT");
    }
  });

  it("requires the bearer token when one is set, and a token for a non-loopback address", async () => {
    const { server, port } = await startServe([], { HATLOOP_SERVE_TOKEN: "tok-123" });
    try {
      const host = `127.0.0.1:${port}`;
      expect((await rawGet(port, "/api/sessions", { host })).status).toBe(401);
      expect((await rawGet(port, "/api/sessions", { host, authorization: "Bearer wrong" })).status).toBe(401);
      expect((await rawGet(port, "/api/sessions", { host, authorization: "Bearer tok-123" })).status).toBe(200);
    } finally {
      server.kill("SIGINT");
    }
    const exposed = await runHatloop(["serve", "--port", "0", "--host", "0.0.0.0"], env);
    expect(exposed.code).toBe(2);
    expect(exposed.stderr).toMatch(/^hatloop: serving on 0\.0\.0\.0 exposes your sessions .* --token or HATLOOP_SERVE_TOKEN\n$/);
  });

  it("bound to 0.0.0.0, answers requests addressed to this machine's own address or name, still not a foreign Host", async () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
    const { server, port } = await startServe(["--host", "0.0.0.0"], { HATLOOP_SERVE_TOKEN: "tok-123" });
    try {
      const authorization = "Bearer tok-123";
      const get = (host: string, address?: string) => rawGet(port, "/api/sessions", { host, authorization }, address);
      if (own) expect((await get(`${own}:${port}`, own)).status).toBe(200);
      expect((await get(`${hostname()}:${port}`)).status).toBe(200);
      expect((await get(`127.0.0.1:${port}`)).status).toBe(200);
      // DNS rebinding: a page's own name, or an address that is not this machine's.
      expect((await get(`evil.example:${port}`)).status).toBe(403);
      expect((await get(`203.0.113.9:${port}`)).status).toBe(403);
    } finally {
      server.kill("SIGINT");
    }
  });

  it("returns the documented fields of a session, not the whole row", async () => {
    const { server, port } = await startServe([]);
    try {
      const host = `127.0.0.1:${port}`;
      const list = JSON.parse((await rawGet(port, "/api/sessions", { host })).body) as Array<Record<string, unknown>>;
      const one = JSON.parse((await rawGet(port, `/api/sessions/${sessionId}`, { host })).body) as Record<string, unknown>;
      for (const fields of [Object.keys(list[0]!), Object.keys(one)]) {
        for (const hidden of ["config", "gateBaseline", "pid", "host", "repoPath", "worktreePath", "scratchpad", "heartbeatAt"])
          expect(fields).not.toContain(hidden);
        expect(fields).toEqual(
          expect.arrayContaining(["id", "title", "status", "hat", "iteration", "branch", "usage", "costUsd", "createdAt"]),
        );
      }
      expect(Object.keys(one)).toEqual(expect.arrayContaining(["checklist", "lastCheckpoint"]));
    } finally {
      server.kill("SIGINT");
    }
  });
});
