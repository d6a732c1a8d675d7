// How `hatloop serve` stops: on the first SIGINT or SIGTERM it closes what it holds (the server, the
// event hub, the queue client, the store); a second signal, or a close that has not ended within
// `graceMs`, ends the process anyway. A server asked to stop must stop: a close that waits on a
// connection or a queue client for ever would leave it running until someone sends SIGKILL.

const SHUTDOWN_GRACE_MS = 10_000;

export type StopReason = "closed" | "second signal" | "grace elapsed";

/** Waits for a stop signal, runs `close`, and says how it ended (the caller exits on anything but "closed"). */
export async function stopOnSignal(
  close: () => Promise<void>,
  options: { graceMs?: number; signals?: NodeJS.EventEmitter } = {},
): Promise<StopReason> {
  const signals = options.signals ?? process;
  await new Promise<void>((resolve) => {
    const first = () => {
      signals.off("SIGINT", first);
      signals.off("SIGTERM", first);
      resolve();
    };
    signals.on("SIGINT", first);
    signals.on("SIGTERM", first);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onSignal: (() => void) | undefined;
  const forced = new Promise<StopReason>((resolve) => {
    onSignal = () => resolve("second signal");
    signals.once("SIGINT", onSignal);
    signals.once("SIGTERM", onSignal);
    timer = setTimeout(() => resolve("grace elapsed"), options.graceMs ?? SHUTDOWN_GRACE_MS);
  });
  try {
    return await Promise.race([close().then((): StopReason => "closed"), forced]);
  } finally {
    clearTimeout(timer);
    if (onSignal) {
      signals.off("SIGINT", onSignal);
      signals.off("SIGTERM", onSignal);
    }
  }
}
