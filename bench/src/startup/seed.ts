import type { Store } from "@hatloop/core";
import { createRig } from "../runtime/rig.js";

// The sessions the read commands list and show: each a real run of the loop (the runtime bench's rig:
// real hats, prompts, context manager and event persister, a zero-latency model), so its messages,
// events, checkpoints and handoff are what hatloop stores.

const SEEDED_SESSIONS = 16;
const ITERATIONS_EACH = 8;

/** Seeds the store; returns the id of the newest session. */
export async function seedSessions(store: Store, count = SEEDED_SESSIONS): Promise<string> {
  let last = "";
  for (let i = 0; i < count; i++) {
    const rig = await createRig(store, { window: 200_000, fillTo: 20_000 });
    await rig.runUntil(ITERATIONS_EACH);
    last = rig.sessionId;
  }
  return last;
}
