import { MARKERS, toolResults, type ContentBlock } from "@hatloop/context";
import type { ModelResponse } from "../ports/model.js";
import { apply, type Change } from "./apply.js";
import { handleNotices } from "./health-notes.js";
import { archiveMessage, storeEntries } from "./live.js";
import type { LiveEntry } from "./context-hook.js";
import type { LoopContext } from "./loop-context.js";

// stop_reason "refusal": the API's safety classifiers stopped the answer. Its documentation says the
// conversation must not go on with the refused turn in it, or the refusals continue: the answer is
// archived (stored, never sent again), the user is told why (stop_details), and the model is asked
// to carry on. A second refusal in a row also withholds the tool results that led to it; a third
// stops the session (resumable) through loop health.

export async function handleRefusal(ctx: LoopContext, response: ModelResponse): Promise<void> {
  const { state, emitter } = ctx;
  await archiveMessage(ctx, response.message);
  const details = response.refusal ?? { category: null, explanation: null };
  const why = [details.category, details.explanation].filter(Boolean).join(": ") || "no reason given";
  const { action, notices } = ctx.health.afterAnswer(true, why);
  const withheld = action === "withhold" ? await withholdLastResults(ctx) : [];
  const count = withheld.reduce((n, w) => n + w.ids.length, 0);
  apply(state, { type: "refused", usage: response.usage, withheld });
  emitter.emit("model.refusal", {
    ...details,
    consecutive: state.health.modelRefusals,
    action: action === "withhold" && count === 0 ? "retry" : action!,
  });
  handleNotices(ctx, notices);
  if (action === "stop") return;
  const also = count ? `, together with the ${count} tool result(s) before it (they are stored; recall fetches them if really needed)` : "";
  apply(state, {
    type: "noted",
    notes: [
      `Your previous answer was stopped by the API's safety classifier (${why}) and taken out of the conversation${also}. Carry on with the task; where a step could be mistaken for harmful content, take another route or explain the benign purpose.`,
    ],
  });
}

type Withheld = Extract<Change, { type: "refused" }>["withheld"];

/** Replacements for the tool results after the last kept answer (the turn that led to the refusals), stored. */
async function withholdLastResults(ctx: LoopContext): Promise<Withheld> {
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
    const replaced: LiveEntry = { seq: null, kind: "injected", message: { role: "user", content } };
    await storeEntries(ctx, [replaced]);
    withheld.push({ index, entry: replaced, ids });
  }
  return withheld;
}
