import { eventReader, type Store } from "@hatloop/core";

const PAGE = 2_000;

/**
 * The hats a session has worn, from its stored events before `beforeId` (all of them when absent):
 * the first run's starting hat, then every hat change, across resumes. A watcher or a resumed run
 * draws the whole timeline, not one that starts at the current hat.
 */
export async function hatHistory(
  store: Store,
  sessionId: string,
  beforeId = Number.MAX_SAFE_INTEGER,
): Promise<Array<{ hat: string; iteration: number }>> {
  const hats: Array<{ hat: string; iteration: number }> = [];
  const reader = eventReader(() => {});
  for (let after = 0; after < beforeId;) {
    const page = (await store.events.after(sessionId, after, PAGE)).filter((e) => e.id < beforeId);
    for (const event of reader.read(page.filter((e) => e.type === "session.start" || e.type === "hat.change"))) {
      if (event.type === "session.start" && hats.length === 0) hats.push({ hat: event.data.hat, iteration: event.iteration });
      if (event.type === "hat.change") hats.push({ hat: event.data.to, iteration: event.iteration });
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.id;
  }
  return hats.slice(-50);
}
