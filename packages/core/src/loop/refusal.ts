import { MARKERS, toolResults, type ContentBlock } from "@hatloop/context";
import type { ModelResponse } from "../ports/model.js";
import type { ChangeOf } from "../state/change.js";
import { commit, report } from "./commit.js";
import { checkAnswer } from "./health.js";
import { commitHealth } from "./health-notes.js";
import type { LoopContext } from "./loop-context.js";

// stop_reason "refusal": the API's safety classifiers stopped the answer. Its documentation says the
// conversation must not go on with the refused turn in it, or the refusals continue: the answer is
// archived (stored, never sent again), the user is told why (stop_details), and the model is asked
// to carry on. A second refusal in a row also withholds the tool results that led to it; a third
// stops the session (resumable) through loop health.

export async function handleRefusal(ctx: LoopContext, response: ModelResponse): Promise<void> {
  const { state } = ctx;
  await commit(ctx, { type: "archived", message: response.message });
  const details = response.refusal ?? { category: null, explanation: null };
  const why = [details.category, details.explanation].filter(Boolean).join(": ") || "no reason given";
  const check = checkAnswer(state.health, true, why);
  const withheld = check.action === "withhold" ? withholdLastResults(ctx) : [];
  const count = withheld.reduce((n, w) => n + w.ids.length, 0);
  await commit(ctx, { type: "refused", usage: response.usage, withheld });
  report(ctx, {
    type: "model.refusal",
    data: {
      ...details,
      consecutive: check.health.modelRefusals,
      action: check.action === "withhold" && count === 0 ? "retry" : check.action!,
    },
  });
  await commitHealth(ctx, check);
  if (check.action === "stop") return;
  const also = count ? `, together with the ${count} tool result(s) before it (they are stored; recall fetches them if really needed)` : "";
  await commit(ctx, {
    type: "noted",
    notes: [
      `Your previous answer was stopped by the API's safety classifier (${why}) and taken out of the conversation${also}. Carry on with the task; where a step could be mistaken for harmful content, take another route or explain the benign purpose.`,
    ],
  });
}

type Withheld = ChangeOf<"refused">["withheld"];

/** Replacements for the tool results after the last kept answer (the turn that led to the refusals). */
function withholdLastResults(ctx: LoopContext): Withheld {
  const { state } = ctx;
  const withheld: Withheld = [];
  for (let index = state.live.length - 1; index >= 0 && state.live[index]!.message.role === "user"; index--) {
    const entry = state.live[index]!;
    if (toolResults(entry.message).length === 0 || typeof entry.message.content === "string") continue;
    const seq = entry.seq === null ? "" : `, seq ${entry.seq}`;
    const ids: string[] = [];
    const content = entry.message.content.map((b): ContentBlock => {
      if (b.type !== "tool_result") return b;
      ids.push(b.tool_use_id);
      return {
        ...b,
        content: `${MARKERS.removedResult}: id ${b.tool_use_id}${seq}] withheld: the API refused the answers that followed it.`,
      };
    });
    withheld.push({ index, message: { role: "user", content }, ids });
  }
  return withheld;
}
