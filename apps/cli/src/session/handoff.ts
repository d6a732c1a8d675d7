import { validateHandoff, type Handoff } from "@hatloop/context";
import type { CheckpointRecord, SessionRecord, Store } from "@hatloop/core";

/** The handoff of a given checkpoint, or of the newest checkpoint that has a valid one. */
export async function findHandoff(
  store: Store,
  sessionId: string,
  seq?: number,
): Promise<{ handoff: Handoff; checkpoint: CheckpointRecord } | null> {
  const candidates =
    seq === undefined ? await store.checkpoints.list(sessionId, { limit: 100 }) : [await store.checkpoints.get(sessionId, seq)];
  for (const checkpoint of candidates) {
    if (!checkpoint?.handoff) continue;
    try {
      return { handoff: validateHandoff(checkpoint.handoff), checkpoint };
    } catch {
      // A damaged handoff: an older checkpoint's will do.
    }
  }
  return null;
}

/**
 * The handoff with the agent's open question, when the session waits for an answer: the question
 * lives on the session (it may be newer than the last checkpoint), so it is added as it is now.
 */
export function withOpenQuestion(handoff: Handoff, session: SessionRecord): Handoff {
  const q = session.question;
  return q ? { ...handoff, open_question: { question: q.text, asked_at: q.askedAt, iteration: q.iteration, answer: q.answer } } : handoff;
}
