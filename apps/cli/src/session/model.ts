import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ModelPort } from "@hatloop/core";
import { AnthropicModel, loadScenario, ScenarioError, ScriptedModel } from "@hatloop/model";
import { usageError } from "../errors.js";

// `--model scripted:FILE` replays a scenario (no API, no key); any other model id goes to the
// Anthropic API with ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL when set), checked before anything
// is created so a missing key costs nothing.

export interface ModelChoice {
  /** What the session records as its model. */
  id: string;
  create(startAt: number): Promise<ModelPort>;
}

export function chooseModel(model: string, env: NodeJS.ProcessEnv = process.env): ModelChoice {
  if (model.startsWith("scripted:")) {
    const file = resolve(model.slice("scripted:".length));
    if (!existsSync(file)) throw usageError(`scenario file not found: ${file}`);
    return {
      id: `scripted:${file}`,
      async create(startAt) {
        try {
          // The session's model id names the main queue; summary requests use another id.
          return new ScriptedModel(await loadScenario(file), { startAt, model: `scripted:${file}` });
        } catch (error) {
          if (error instanceof ScenarioError) throw usageError(error.message);
          throw error;
        }
      },
    };
  }
  if (!env.ANTHROPIC_API_KEY) {
    throw usageError("ANTHROPIC_API_KEY is not set (set it to use the Anthropic API, or run offline with --model scripted:FILE; try hatloop demo)");
  }
  return { id: model, create: async () => new AnthropicModel() };
}
