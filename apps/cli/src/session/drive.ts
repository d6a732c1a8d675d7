import { createEventPersister, LoopControl, runLoop, type EventSink, type HatloopConfig, type SessionRecord, type Store } from "@hatloop/core";
import { jsonSink } from "../sinks/json.js";
import { plainSink } from "../sinks/plain.js";
import type { ModelChoice } from "./model.js";
import { loopDeps } from "./deps.js";
import { startHeartbeat } from "./liveness.js";

export type OutputMode = "plain" | "json";

/**
 * Model turns already taken: the iteration of the last stored message. After a crash mid-iteration
 * that iteration's response is stored although the session row was not updated yet.
 */
async function iterationsDone(store: Store, sessionId: string): Promise<number> {
  const last = await store.messages.lastSeq(sessionId);
  return last ? ((await store.messages.range(sessionId, last, last))[0]?.iteration ?? 0) : 0;
}

/**
 * Runs a session's loop in this process with the chosen output, persisting every event. Ctrl-C
 * interrupts cleanly (checkpoint, then pause, exit 130); a second Ctrl-C exits at once.
 */
export async function driveSession(options: {
  session: SessionRecord;
  store: Store;
  config: HatloopConfig;
  model: ModelChoice;
  output: OutputMode;
}): Promise<number> {
  const { session, store, config } = options;
  const write = (line: string) => process.stdout.write(`${line}\n`);
  const persister = createEventPersister(store, session.id);
  const printer: EventSink = options.output === "json" ? jsonSink(write) : plainSink(write);
  const control = new LoopControl();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) {
      process.stderr.write("hatloop: interrupted again; exiting without waiting\n");
      process.exit(130);
    }
    process.stderr.write("hatloop: interrupting: writing a checkpoint, then pausing (Ctrl-C again to exit at once)\n");
    control.interrupt();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  const stopHeartbeat = startHeartbeat(store, session.id);
  try {
    const deps = await loopDeps({ session, store, model: await options.model.create(await iterationsDone(store, session.id)), config, sinks: [persister.sink, printer], control });
    const outcome = await runLoop({ sessionId: session.id, config }, deps);
    return outcome.exitCode;
  } finally {
    stopHeartbeat();
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    await persister.close();
    if (persister.errors.length) process.stderr.write(`hatloop: ${persister.errors.length} event writes failed: ${persister.errors[0]!.message}\n`);
  }
}
