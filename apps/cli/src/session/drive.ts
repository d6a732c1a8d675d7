import { createEventPersister, LoopControl, runLoop, type HatloopConfig, type SessionRecord, type Store } from "@hatloop/core";
import { openSessionUi, type SessionUi } from "../ui/session-ui.js";
import type { OutputMode } from "../ui/output-mode.js";
import { loopDeps } from "./deps.js";
import { startHeartbeat } from "./liveness.js";
import type { ModelChoice } from "./model.js";

/**
 * Model turns already taken: the iteration of the last stored message. After a crash mid-iteration
 * that iteration's response is stored although the session row was not updated yet.
 */
async function iterationsDone(store: Store, sessionId: string): Promise<number> {
  const last = await store.messages.lastSeq(sessionId);
  return last ? ((await store.messages.range(sessionId, last, last))[0]?.iteration ?? 0) : 0;
}

/**
 * Runs a session's loop in this process, showing it in `ui` (or a new one for `output`) and
 * persisting every event. Ctrl-C (a signal, or the key in the TUI) interrupts cleanly: checkpoint,
 * then pause, exit 130; a second Ctrl-C exits at once.
 */
export async function driveSession(options: {
  session: SessionRecord;
  store: Store;
  config: HatloopConfig;
  model: ModelChoice;
  output: OutputMode;
  ui?: SessionUi;
}): Promise<number> {
  const { session, store, config } = options;
  const ui = options.ui ?? (await openSessionUi(options.output, session, store));
  const persister = createEventPersister(store, session.id);
  const control = new LoopControl();
  ui.attach(control);
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) {
      process.stderr.write("hatloop: interrupted again; exiting without waiting\n");
      process.exit(130);
    }
    ui.notice("interrupting: writing a checkpoint, then pausing (Ctrl-C again to exit at once)");
    control.interrupt();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  const stopHeartbeat = startHeartbeat(store, session.id);
  try {
    const deps = await loopDeps({ session, store, model: await options.model.create(await iterationsDone(store, session.id)), config, sinks: [persister.sink, ui.sink], control });
    const outcome = await runLoop({ sessionId: session.id, config }, deps);
    return outcome.exitCode;
  } finally {
    stopHeartbeat();
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    await persister.close();
    if (!options.ui) await ui.close();
    if (persister.errors.length) process.stderr.write(`hatloop: ${persister.errors.length} event writes failed: ${persister.errors[0]!.message}\n`);
  }
}
