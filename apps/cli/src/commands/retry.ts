import type { Command } from "commander";
import { shortId } from "../format.js";
import { printJson, printText } from "../output/print.js";
import { rerunSession, retrySession } from "../fleet/actions.js";
import { configFor, openConfiguredStore, resolveSession } from "../runtime.js";

// hatloop retry (a dead-lettered session back in the queue) and hatloop rerun (a session's task again,
// as a new session): the fleet's actions (fleet/actions.ts), which the web console calls too.

export async function retryAction(id: string, flags: { json?: boolean }, command: Command): Promise<void> {
  const config = configFor(command);
  const store = await openConfiguredStore(config);
  try {
    const retried = await retrySession(store, config, (await resolveSession(store, id)).id);
    if (flags.json) printJson({ id: retried.id });
    else printText(`session ${shortId(retried.id)} is queued again; a worker tries to start it`);
  } finally {
    await store.close();
  }
}

export async function rerunAction(id: string, flags: { json?: boolean }, command: Command): Promise<void> {
  const config = configFor(command);
  const store = await openConfiguredStore(config);
  try {
    const rerun = await rerunSession(store, config, (await resolveSession(store, id)).id);
    if (flags.json) printJson(rerun);
    else printText(rerun.id);
  } finally {
    await store.close();
  }
}
