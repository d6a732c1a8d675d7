import { ModelError, type UsageLimit } from "../ports/model.js";
import { formatDuration } from "../text/format.js";
import { runtimeMs } from "../state/loop-state.js";
import { commit, report } from "./commit.js";
import type { LoopContext } from "./loop-context.js";
import type { Ending } from "./outcomes.js";

// The account's usage limit (a subscription's allowance, an organisation's spend limit) resets in
// hours. The model hands it over at once with the reset time the API gave (packages/model's
// usage-limit.ts); here the loop waits for that reset, says so once, and asks again in the same
// iteration, as if nothing happened. It stops instead, resumably, when told not to wait
// (`retry.usageLimit: stop`, `--usage-limit stop`), when the API gave no reset time, or when the
// reset comes after the runtime budget ends (then with the budget's own reason). The wait ends
// early on Ctrl-C and `hatloop stop`.

/** A model error that is a usage limit. */
type UsageLimitError = ModelError & { usageLimit: UsageLimit };

export function asUsageLimit(error: unknown): UsageLimitError | null {
  return error instanceof ModelError && !error.aborted && error.usageLimit ? (error as UsageLimitError) : null;
}

/** The longest single nap of a wait: the wall clock is looked at again after it (a machine that slept). */
const NAP_MS = 60_000;

/**
 * Waits for the limit's reset and returns null (ask again), or how the run ends. `announced` holds
 * the resets already said: the API still refusing after a reset is waited out again (at least
 * retry.maxDelay, at most a minute), silently.
 */
export async function awaitUsageLimit(ctx: LoopContext, error: UsageLimitError, announced: Set<number>): Promise<Ending | null> {
  const { resetAt } = error.usageLimit;
  const now = ctx.now();
  const say = (action: "wait" | "stop" | "budget", message: string) =>
    report(ctx, { type: "model.usage_limit", data: { resetAt, action, message, reason: error.message } });
  if (resetAt === null) {
    say("stop", "usage limit reached and the API gave no reset time; stopping (resume once the limit has reset)");
    return ended(ctx, { kind: "usage-limit", resetAt });
  }
  const when = `${clockTime(resetAt, now)} (${formatDuration(Math.max(0, resetAt - now))})`;
  if (ctx.config.retry.usageLimit === "stop") {
    say("stop", `usage limit reached; it resets at ${when}; stopping, as retry.usageLimit is stop`);
    return ended(ctx, { kind: "usage-limit", resetAt });
  }
  const again = announced.has(resetAt) ? Math.min(ctx.config.retry.maxDelay, NAP_MS) : 0;
  const waitMs = Math.max(resetAt - now, again);
  const left = runtimeLeft(ctx, now);
  if (left !== null && waitMs >= left) {
    say(
      "budget",
      `usage limit reached; it resets at ${when}, after the runtime budget ends (${formatDuration(left)} left); stopping there`,
    );
    return ended(ctx, { kind: "budget", budget: "runtime" });
  }
  if (!announced.has(resetAt)) say("wait", `usage limit reached; waiting until ${when}, then going on`);
  announced.add(resetAt);
  const { control } = ctx.deps;
  // The wall clock, not a monotonic one: the reset is a time of day, and a laptop may sleep through it.
  const until = Date.now() + waitMs;
  while (Date.now() < until && !control.interrupted && !control.stopRequested) await control.nap(Math.min(until - Date.now(), NAP_MS));
  if (control.interrupted) return ended(ctx, { kind: "interrupted" });
  if (control.stopRequested) return ended(ctx, { kind: "stopped-by-user" });
  return null;
}

/** The iteration did not happen: it is redone when the run goes on (as after a failed model call). */
async function ended(ctx: LoopContext, ending: Ending): Promise<Ending> {
  await commit(ctx, { type: "iteration-abandoned" });
  return ending;
}

function runtimeLeft(ctx: LoopContext, now: number): number | null {
  const limit = ctx.state.session.budgets.maxRuntimeMs;
  return limit === null || limit <= 0 ? null : Math.max(0, limit - runtimeMs(ctx.state, now));
}

/** The reset in the runner's local time: "03:00" today, "2026-11-28 03:00" on another day. */
function clockTime(at: number, now: number): string {
  const date = new Date(at);
  const pad = (n: number) => String(n).padStart(2, "0");
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  if (date.toDateString() === new Date(now).toDateString()) return time;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}
