import type { ModelPort } from "../ports/model.js";
import type { Usage } from "../store/port.js";

/** One prompt to the cheaper side model, no tools; its text answer and what it cost. */
export async function askText(
  side: { model: ModelPort; summaryModel: string; signal: AbortSignal },
  prompt: string,
  maxTokens: number,
): Promise<{ text: string; usage: Usage; costUsd: number }> {
  const response = await side.model.complete({
    model: side.summaryModel,
    system: [],
    messages: [{ role: "user", content: prompt }],
    tools: [],
    maxTokens,
    signal: side.signal,
  });
  const content = response.message.content;
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join("");
  return { text, usage: response.usage, costUsd: response.costUsd };
}
