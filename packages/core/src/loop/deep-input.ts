import { boundJsonDepth, jsonDepthExceeds, MAX_JSON_DEPTH } from "@hatloop/context";
import type { ModelResponse } from "../ports/model.js";

// A tool input nested deeper than MAX_JSON_DEPTH is cut right where the model's answer enters the
// loop: the levels below are kept as their JSON text (nothing is lost), so every later walk over it
// (redaction, signatures, token estimates, the next request, the store) sees bounded JSON. Such a
// call is not run: the executor refuses an input that reaches the bound.

/** The response with every tool input at most MAX_JSON_DEPTH deep; the same object when none was deeper. */
export function boundToolInputs(response: ModelResponse): ModelResponse {
  const { content } = response.message;
  if (typeof content === "string") return response;
  const bounded = content.map((block) => {
    if (block.type !== "tool_use") return block;
    const input = boundJsonDepth(block.input);
    if (input === block.input) return block;
    return { ...block, input };
  });
  return bounded.some((block, i) => block !== content[i]) ? { ...response, message: { ...response.message, content: bounded } } : response;
}

/** Why a tool input is not run, or null when it is shallow enough. */
export function tooDeepInput(name: string, input: unknown): string | null {
  if (!jsonDepthExceeds(input, MAX_JSON_DEPTH - 1)) return null;
  return `Not run: the input of ${name} is nested ${MAX_JSON_DEPTH} levels deep or more (hatloop keeps the deeper levels as JSON text). Send a flatter input.`;
}
