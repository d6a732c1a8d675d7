import { errorMessage, redactSecrets } from "@hatloop/context";
import { childEnv, runShell } from "@hatloop/tools";

// One hook delivery: a shell command (the payload as JSON on its stdin) or a webhook (POSTed as
// JSON), each attempt bounded by a timeout, retried with backoff. Never throws: a failure is an
// answer that the caller reports.

export interface Delivery {
  target: string;
  /** The hook's name and the event type, also given to a command as HATLOOP_HOOK / HATLOOP_EVENT. */
  hook: string;
  eventType: string;
  sessionId: string;
  payload: string;
  timeoutMs: number;
  retries: number;
  /** A command's working directory. */
  cwd: string;
  /** First wait between attempts, doubled each time. */
  backoffMs?: number;
  /** Ends the delivery at once (the run is over and its wait for hooks ran out). */
  signal?: AbortSignal;
}

export type DeliveryResult = { ok: true; attempts: number } | { ok: false; attempts: number; error: string };

const MAX_BACKOFF_MS = 30_000;

const isWebhook = (target: string) => /^https?:\/\//i.test(target);

/** How a target is named in reports: a webhook by its origin only (its path often holds a token), a command shortened. */
export function targetLabel(target: string): string {
  if (isWebhook(target)) return `webhook ${new URL(target).origin}`;
  const command = redactSecrets(target.replace(/\s+/g, " ").trim());
  return `command ${command.length > 60 ? `${command.slice(0, 57)}...` : command}`;
}

export async function deliver(delivery: Delivery): Promise<DeliveryResult> {
  let error = "";
  for (let attempt = 1; attempt <= delivery.retries + 1; attempt++) {
    if (attempt > 1) await sleep(Math.min(MAX_BACKOFF_MS, (delivery.backoffMs ?? 1_000) * 2 ** (attempt - 2)), delivery.signal);
    if (delivery.signal?.aborted) return { ok: false, attempts: attempt - 1, error: "abandoned" };
    const outcome = isWebhook(delivery.target) ? await post(delivery) : await runCommand(delivery);
    if (outcome.ok) return { ok: true, attempts: attempt };
    error = outcome.error;
    if (!outcome.retry) return { ok: false, attempts: attempt, error };
  }
  return { ok: false, attempts: delivery.retries + 1, error };
}

type Attempt = { ok: true } | { ok: false; error: string; retry: boolean };

async function post(delivery: Delivery): Promise<Attempt> {
  try {
    const response = await fetch(delivery.target, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "hatloop", "x-hatloop-hook": delivery.hook },
      body: delivery.payload,
      signal: delivery.signal
        ? AbortSignal.any([AbortSignal.timeout(delivery.timeoutMs), delivery.signal])
        : AbortSignal.timeout(delivery.timeoutMs),
    });
    await response.body?.cancel();
    if (response.ok) return { ok: true };
    // A refusal (400, 401, 404...) says the same on every attempt; 408, 429 and 5xx may pass later.
    const retry = response.status >= 500 || response.status === 408 || response.status === 429;
    return { ok: false, error: `HTTP ${response.status}`, retry };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    const message = name === "TimeoutError" ? `no answer in ${seconds(delivery.timeoutMs)}` : causeOf(error);
    return { ok: false, error: message, retry: true };
  }
}

async function runCommand(delivery: Delivery): Promise<Attempt> {
  const run = await runShell({
    command: delivery.target,
    cwd: delivery.cwd,
    timeoutMs: delivery.timeoutMs,
    ...(delivery.signal ? { signal: delivery.signal } : {}),
    input: delivery.payload,
    // The user's own command, with the user's environment; hatloop's credentials stay out.
    env: {
      ...childEnv(process.env, ["*"]),
      HATLOOP_HOOK: delivery.hook,
      HATLOOP_EVENT: delivery.eventType,
      HATLOOP_SESSION: delivery.sessionId,
    },
    headChars: 0,
    tailChars: 2_000,
  });
  if (run.exitCode === 0) return { ok: true };
  const last = run.output.trim().split("\n").at(-1)?.trim() ?? "";
  const what = run.timedOut
    ? `timed out after ${seconds(delivery.timeoutMs)}`
    : run.exitCode === null
      ? `ended by ${run.signalName ?? "a signal"}`
      : `exit ${run.exitCode}`;
  return { ok: false, error: redactSecrets(last ? `${what}: ${last.slice(0, 200)}` : what), retry: true };
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? errorMessage(error);
}

const seconds = (ms: number) => `${ms / 1000}s`;
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
