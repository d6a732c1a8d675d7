import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const bin = new URL("../../dist/bin.js", import.meta.url).pathname;

export interface ConsoleServer {
  base: string;
  token: string;
  /** A POST of a form, as an API client acts (the bearer token; a page uses its login and CSRF token). */
  act(kind: string, form: Record<string, string>): Promise<{ status: number; text: string }>;
  close(): void;
}

/** `hatloop serve --port 0` on `env`'s database, once it says where it serves. */
export async function startConsole(env: Record<string, string>, args: string[] = []): Promise<ConsoleServer> {
  const server = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], {
    env: { PATH: process.env.PATH, HOME: env.HATLOOP_HOME, HATLOOP_DATABASE__LINGER: "0", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout }).once("line", resolve);
    server.once("exit", (code) => reject(new Error(`hatloop serve exited (${String(code)})`)));
  });
  const base = /http:\/\/[^/ ]+/.exec(line)![0];
  const token = /token=([\w-]+)/.exec(line)![1]!;
  return {
    base,
    token,
    async act(kind, form) {
      const res = await fetch(`${base}/actions/${kind}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: new URLSearchParams(form),
      });
      return { status: res.status, text: (await res.text()).replace(/<[^>]+>/g, "") };
    },
    close: () => server.kill(),
  };
}
