import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { errorMessage } from "@hatloop/context";
import { configSchema, type HatloopConfig, type ModelPort, type Provider } from "@hatloop/core";
import {
  cloudModelId,
  cloudSettings,
  createProviderModel,
  parseScenario,
  ProviderSetupError,
  ScenarioError,
  ScriptedModel,
  type Scenario,
} from "@hatloop/model";
import { usageError } from "../errors.js";
import { invocation } from "../invocation.js";

// `--model scripted:FILE` replays a scenario (no API, no key); any other model id goes to the
// provider: the Anthropic API with ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL when set), or Bedrock
// or Vertex AI with their own environment (docs/providers.md). What the environment lacks is
// found here, before anything is created; a cloud's credentials are resolved by ready().

export interface ModelChoice {
  /** What the session records as its model. */
  id: string;
  /** `startAt`: main turns (iterations) done; `gradings`: the grader's answers stored (both for a scripted model's replay). */
  create(startAt: number, gradings?: number): Promise<ModelPort>;
  /** Resolves the provider's credentials now, so a start without them fails before it creates anything. */
  ready(): Promise<void>;
}

export function chooseModel(
  model: string,
  config: Partial<Pick<HatloopConfig, "retry" | "provider">> = {},
  env: NodeJS.ProcessEnv = process.env,
): ModelChoice {
  if (model.startsWith("scripted:")) {
    const file = resolve(model.slice("scripted:".length));
    const scenario = readScenario(file);
    // The session's model id names the main queue; summary requests use another id.
    return {
      id: `scripted:${file}`,
      create: async (startAt, gradings = 0) => new ScriptedModel(scenario, { startAt, graderStartAt: gradings, model: `scripted:${file}` }),
      ready: async () => {},
    };
  }
  const provider = config.provider ?? "anthropic";
  const id = providerModelId(provider, model);
  checkEnvironment(provider, env);
  const retry = config.retry ? { retry: { maxAttempts: config.retry.maxAttempts, maxDelayMs: config.retry.maxDelay } } : {};
  let made: Promise<ModelPort> | undefined;
  const create = () => (made ??= createProviderModel({ provider, model: id, env, ...retry }).catch(asUsageError));
  return { id, create, ready: async () => void (await create()) };
}

/** The provider a stored session runs on: the one it started with (sessions from before providers: the Anthropic API). */
export function sessionProvider(sessionConfig: Record<string, unknown>): Provider {
  const stored = configSchema.shape.provider.safeParse(sessionConfig.provider);
  return stored.success ? stored.data : "anthropic";
}

function providerModelId(provider: Provider, model: string): string {
  const id = cloudModelId(provider, model);
  if (id) return id;
  const example = provider === "bedrock" ? "us.anthropic.claude-sonnet-4-5-20250929-v1:0" : "claude-sonnet-4-5@20250929";
  throw usageError(`${model} is not a model id ${provider === "bedrock" ? "Bedrock" : "Vertex AI"} knows; pass --model, e.g. ${example}`);
}

function checkEnvironment(provider: Provider, env: NodeJS.ProcessEnv): void {
  if (provider === "anthropic") {
    if (env.ANTHROPIC_API_KEY) return;
    throw usageError(
      `ANTHROPIC_API_KEY is not set (set it to use the Anthropic API, or run offline with --model scripted:FILE; try ${invocation()} demo)`,
    );
  }
  try {
    cloudSettings(provider, env);
  } catch (error) {
    asUsageError(error);
  }
}

/** A provider that cannot be used as configured is the user's to fix: a usage error (exit 2). */
function asUsageError(error: unknown): never {
  throw error instanceof ProviderSetupError ? usageError(error.message) : error;
}

function readScenario(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError(
      code === "ENOENT" ? `scenario file not found: ${file}` : `cannot read the scenario file ${file}: ${code ?? errorMessage(error)}`,
    );
  }
  try {
    return parseScenario(text, file);
  } catch (error) {
    if (error instanceof ScenarioError) throw usageError(error.message);
    throw error;
  }
}
