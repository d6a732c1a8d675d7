import { textOf } from "@hatloop/context";
import { parseSignals } from "../signals/parse.js";
import { applySignals } from "./apply-signals.js";
import { commit } from "./commit.js";
import type { LoopContext } from "./loop-context.js";
import type { Ending } from "./outcomes.js";
import { askUser } from "./question.js";
import type { OpenTurn } from "./restore.js";
import { route } from "./routing.js";
import { closeTurn } from "./turn-end.js";

// A run killed after storing the model's answer and before closing its turn (while its tools ran,
// say) left the answer's signals unapplied: its scratchpad, checklist marks, event and question.
// Resume closes the turn as the iteration would have: the signals again (each is idempotent, so one
// already written before the kill changes nothing), the routing, then the closing message with the
// calls' results and the hat change.

export async function closeOpenTurn(ctx: LoopContext, turn: OpenTurn): Promise<Ending | null> {
  const effects = await applySignals(ctx, parseSignals(textOf(turn.answer), ctx.knownTopics));
  const hatChange = await route(ctx, effects);
  await commit(ctx, { type: "noted", notes: ["The session was interrupted and has been resumed."] });
  await closeTurn(ctx, { results: turn.results, hatChange });
  return effects.question ? askUser(ctx, effects.question) : null;
}
