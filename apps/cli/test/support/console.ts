import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { HUNG_MS } from "./hatloop.js";

// The web console in a real browser: `hatloop serve` as a process (its printed login link is how a
// person gets in), and Debian's Chromium driven by Playwright. No browser is downloaded: the tests
// use the machine's (.ci/run installs it), and skip without one, or fail under CI (requireOrSkip).

const bin = new URL("../../dist/bin.js", import.meta.url).pathname;

/** The browser the tests drive: Debian's package, or another Chromium named by HATLOOP_TEST_CHROMIUM. */
export const CHROMIUM = process.env.HATLOOP_TEST_CHROMIUM ?? "/usr/bin/chromium";

export const hasChromium = (): boolean => existsSync(CHROMIUM);

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export function launchBrowser(args: string[] = []): Promise<Browser> {
  // Chromium refuses to start its sandbox as root (CI containers run as root).
  const root = process.getuid?.() === 0;
  return chromium.launch({ executablePath: CHROMIUM, args: [...(root ? ["--no-sandbox"] : []), ...args] });
}

export interface Served {
  /** http://127.0.0.1:PORT, no trailing slash. */
  base: string;
  /** The login link serve printed (with its token, unless one was configured). */
  login: string;
  /** The console's token, read from the link. */
  token: string;
  port: number;
  stop(): Promise<void>;
}

/** `hatloop serve --port 0` with a clean environment plus `env`; resolves once it printed its address. */
export function startServe(env: Record<string, string>, args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], {
    env: { PATH: process.env.PATH, HOME: env.HATLOOP_HOME ?? process.env.HOME, HATLOOP_DATABASE__LINGER: "0", ...env },
  });
  let stdout = "";
  let stderr = "";
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await closed;
  };
  return new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => fail("never printed its address"), HUNG_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      if (started) return;
      child.kill("SIGKILL");
      reject(new Error(`hatloop serve ${why}; stdout: ${stdout}; stderr: ${stderr}`));
    };
    child.stderr.on("data", (d) => (stderr += d));
    void closed.then(() => fail("exited"));
    child.stdout.on("data", (d) => {
      stdout += d;
      const printed = /serving on (http:\/\/[^/\s]+)\/ \(console: (\S+?);/.exec(stdout);
      if (started || !printed) return;
      started = true;
      clearTimeout(timer);
      const [, base, login] = printed as unknown as [string, string, string];
      resolve({ base, login, token: new URL(login).searchParams.get("token") ?? "", port: Number(new URL(base).port), stop });
    });
  });
}

/** A POST of a form, as an API client acts: the bearer token (a page uses its login and CSRF token). */
export async function act(served: Served, kind: string, form: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${served.base}/actions/${kind}`, {
    method: "POST",
    headers: { authorization: `Bearer ${served.token}` },
    body: new URLSearchParams(form),
  });
  return { status: res.status, text: (await res.text()).replace(/<[^>]+>/g, "") };
}

/** A new browser context (no cookie of another test's) at `viewport`, logged in through the printed link. */
export async function loggedIn(browser: Browser, served: Served, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport });
  // Waits end when what they wait for happens; the limit only ends a hung test (as HUNG_MS everywhere).
  context.setDefaultTimeout(HUNG_MS);
  const page = await context.newPage();
  const response = await page.goto(served.login);
  if (!response?.ok() || new URL(page.url()).pathname !== "/") throw new Error(`logging in failed: ${response?.status()} at ${page.url()}`);
  return page;
}

/**
 * Marks the page's window, so that a later check can tell the page was updated in place (the mark is
 * still there) rather than loaded again (a new window has none).
 */
export async function markWindow(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => ((window as unknown as { hatloopMark: string }).hatloopMark = "same page"));
  return () => page.evaluate(() => (window as unknown as { hatloopMark?: string }).hatloopMark === "same page");
}
