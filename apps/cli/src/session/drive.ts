import { hostname } from "node:os";
import {
  createEventPersister,
  LoopControl,
  runLoop,
  type EventSink,
  type GitPort,
  type HatloopConfig,
  type LoopOutcome,
  type SessionRecord,
  type Store,
} from "@hatloop/core";
import { clearStaleLocks, type McpTools } from "@hatloop/tools";
import { openSessionUi, type SessionUi } from "../ui/session-ui.js";
import type { OutputMode } from "../ui/output-mode.js";
import { loopDeps } from "./deps.js";
import { openMcpTools } from "./mcp.js";
import { takeLease } from "./liveness.js";
import type { ModelChoice } from "./model.js";
import { printError } from "../output/print.js";
import { invocation } from "../invocation.js";
import { shortId } from "../format.js";
import { sessionLifecycle } from "./lifecycle.js";
import { isOutage, outageEvents, withResumeHint } from "./outage-events.js";
import { watchStopRequests } from "./stop-requests.js";

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
  const { session, config } = options;
  const control = new LoopControl();
  // Taken before anything is shown or written: a second runner of this session stops here.
  const lease = await takeLease(options.store, session, config.leaseTtl, () => control.interrupt());
  const store = options.store.fenced(session.id, lease.epoch);
  const ui = options.ui ?? (await openSessionUi(options.output, session, options.store));
  ui.attach(control); // at once: a key pressed in the TUI from now on reaches the loop
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) {
      // Said once the view has left the alternate screen (its own exit listener, registered
      // earlier, runs first): written before, the line went with that screen.
      process.once("exit", () =>
        printError(
          `interrupted again: exited without waiting for the checkpoint\n   continue from the last one with: ${invocation()} resume ${shortId(session.id)}`,
        ),
      );
      process.exit(130);
    }
    ui.notice("interrupting: writing a checkpoint, then pausing (Ctrl-C again to exit at once)");
    control.interrupt();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  // `hatloop stop` from any machine: like the TUI's s (finish the iteration, checkpoint, pause).
  const stops = watchStopRequests(
    options.store,
    () => [session.id],
    () => {
      ui.notice("stop requested (hatloop stop): finishing this iteration, then pausing");
      control.requestStop();
    },
  );
  try {
    const outcome = await runLeasedSession({
      session,
      store,
      config,
      model: options.model,
      control,
      sinks: [ui.sink],
      notice: (line) => ui.notice(line),
      // Only the TUI has a person at it: a headless run never holds a terminal waiting for an answer.
      interactive: options.output === "tui",
    });
    return outcome.exitCode;
  } catch (error) {
    throw withResumeHint(error, session);
  } finally {
    stops.stop();
    // The stop request this run obeyed (hatloop stop, the console's Stop) would stop its resume too.
    await stops.clearActedOn().catch(() => {});
    await lease.release();
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    if (!options.ui) await ui.close();
  }
}

/**
 * The loop of a session whose lease this process holds (`store` is fenced by it): stale git locks
 * cleared, every event persisted, outages reported, hooks run, a completion's pull request opened.
 * Shared by `run`/`resume` and the fleet's workers.
 */
export async function runLeasedSession(options: {
  session: SessionRecord;
  store: Store;
  config: HatloopConfig;
  model: ModelChoice;
  control: LoopControl;
  sinks: EventSink[];
  notice(line: string): void;
  git?: GitPort;
  /** Who runs it (a fleet worker's name); default host:pid. */
  runner?: string;
  /** Someone watches this run's terminal: the agent's questions wait for an answer (default: headless). */
  interactive?: boolean;
  /** Said to the model on resume with the resume packet (a fleet takeover's unrestored work). */
  resumeNote?: string;
}): Promise<LoopOutcome> {
  const { session, store, config, control } = options;
  // Holding the lease, this is the only hatloop in the worktree: a git lock there was left by a killed one.
  const locks = session.inPlace ? [] : await clearStaleLocks(session.worktreePath, session.branch).catch(() => []);
  if (locks.length) options.notice(`removed ${locks.length} git lock file(s) a killed process left in the worktree: ${locks.join(", ")}`);
  const persister = createEventPersister(store, session.id);
  const outages = outageEvents(session, [persister.sink, ...options.sinks]);
  const lifecycle = sessionLifecycle({ session, store, config, sinks: [persister.sink, ...options.sinks] });
  let mcp: McpTools | undefined;
  try {
    const model = await options.model.create(await iterationsDone(store, session.id), (await store.grades.list(session.id)).length);
    mcp = await openMcpTools(session, config);
    const deps = await loopDeps({
      session,
      store,
      model,
      mcpTools: mcp.tools,
      config,
      sinks: [persister.sink, ...options.sinks, outages.sink, lifecycle.sink],
      control,
      git: options.git,
      runner: options.runner ?? `${hostname()}:${process.pid}`,
    });
    const outcome = await runLoop(
      { sessionId: session.id, config, interactive: options.interactive ?? false, resumeNote: options.resumeNote },
      { ...deps, flushEvents: () => persister.flush() },
    );
    await lifecycle.afterRun(outcome);
    return outcome;
  } finally {
    await mcp?.close();
    await lifecycle.settle();
    outages.stop();
    await persister.close();
    if (persister.errors.length && !isOutage(persister.errors[0]))
      printError(`${persister.errors.length} event writes failed: ${persister.errors[0]!.message}`);
  }
}
