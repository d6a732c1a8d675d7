import type { Provider } from "@hatloop/core";

// The clouds name models their own way: Bedrock "anthropic.claude-sonnet-4-5-20250929-v1:0" (or an
// inference profile, the same with "us." / "eu." / "global." in front, or an ARN), Vertex
// "claude-sonnet-4-5@20250929" (the newest models without the date). An Anthropic id of a model
// listed here is translated; any other id has to be given in the provider's own form.

/** The snapshot each cloud serves of a model family (its Anthropic id without the date). */
const SNAPSHOTS: Record<string, string> = {
  "claude-haiku-4-5": "20251001",
  "claude-sonnet-4-5": "20250929",
  "claude-opus-4-5": "20251101",
  "claude-opus-4-1": "20250805",
  "claude-sonnet-4": "20250514",
  "claude-opus-4": "20250514",
  "claude-3-7-sonnet": "20250219",
  "claude-3-5-haiku": "20241022",
  "claude-3-haiku": "20240307",
};

const BEDROCK_ID = /^(?:([a-z]{2,6})\.)?anthropic\./;
const DATED = /^(.*)-(\d{8})$/;

function isBedrockModelId(model: string): boolean {
  return BEDROCK_ID.test(model) || model.startsWith("arn:");
}

/**
 * The id to send to `provider` for `model`, or null when it cannot be known. `like` is the session's
 * main model: a translated id takes its inference-profile prefix ("us.", "global."), so the summary
 * model runs where the main one does.
 */
export function cloudModelId(provider: Provider, model: string, like = ""): string | null {
  if (provider === "anthropic") return model;
  if (provider === "bedrock") {
    if (isBedrockModelId(model)) return model;
    const { family, date } = splitDate(model);
    const snapshot = date ?? SNAPSHOTS[family];
    if (!snapshot || !family.startsWith("claude-")) return null;
    const profile = BEDROCK_ID.exec(like)?.[1];
    return `${profile ? `${profile}.` : ""}anthropic.${family}-${snapshot}-v1:0`;
  }
  if (isBedrockModelId(model)) return null;
  if (model.includes("@")) return model;
  const { family, date } = splitDate(model);
  const snapshot = date ?? SNAPSHOTS[family];
  return snapshot ? `${family}@${snapshot}` : model;
}

/** "claude-sonnet-4-5-20250929" → family "claude-sonnet-4-5", date "20250929"; "-0" aliases ("claude-sonnet-4-0") drop it. */
function splitDate(model: string): { family: string; date: string | null } {
  const dated = DATED.exec(model);
  const family = (dated?.[1] ?? model).replace(/-0$/, "");
  return { family, date: dated?.[2] ?? null };
}

/**
 * Whether calls go to a regional endpoint, which the clouds charge 10% more for (pricing.ts):
 * Bedrock unless the id is a `global.` inference profile, Vertex unless the region is `global`.
 */
export function isRegionalEndpoint(provider: Provider, model: string, region: string): boolean {
  if (provider === "bedrock") return !model.startsWith("global.");
  if (provider === "vertex") return region !== "global";
  return false;
}
