import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { HatloopConfig, ModelPort } from "@hatloop/core";
import { AnthropicModel, parseScenario, ScenarioError, ScriptedModel, type Scenario } from "@hatloop/model";
import { usageError } from "../errors.js";

// `--model scripted:FILE` replays a scenario (no API, no key); any other model id goes to the
// Anthropic API with ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL when set). Both are checked here,
// before anything is created: a missing key or a scenario that does not parse costs nothing.

export interface ModelChoice {
  /** What the session records as its model. */
  id: string;
  create(startAt: number): Promise<ModelPort>;
}

export function chooseModel(model: string, retry?: HatloopConfig["retry"], env: NodeJS.ProcessEnv = process.env): ModelChoice {
  if (model.startsWith("scripted:")) {
    const file = resolve(model.slice("scripted:".length));
    const scenario = readScenario(file);
    // The session's model id names the main queue; summary requests use another id.
    return { id: `scripted:${file}`, create: async (startAt) => new ScriptedModel(scenario, { startAt, model: `scripted:${file}` }) };
  }
  if (!env.ANTHROPIC_API_KEY) {
    throw usageError(
      "ANTHROPIC_API_KEY is not set (set it to use the Anthropic API, or run offline with --model scripted:FILE; try hatloop demo)",
    );
  }
  const options = retry ? { retry: { maxAttempts: retry.maxAttempts, maxDelayMs: retry.maxDelay } } : {};
  return { id: model, create: async () => new AnthropicModel(options) };
}

function readScenario(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError(
      code === "ENOENT" ? `scenario file not found: ${file}` : `cannot read the scenario file ${file}: ${code ?? (error as Error).message}`,
    );
  }
  try {
    return parseScenario(text, file);
  } catch (error) {
    if (error instanceof ScenarioError) throw usageError(error.message);
    throw error;
  }
}
