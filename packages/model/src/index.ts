export { AnthropicModel, type AnthropicModelOptions } from "./anthropic/anthropic-model.js";
export { cloudModelId } from "./providers/cloud-model-ids.js";
export { cloudSettings, ProviderSetupError } from "./providers/cloud-settings.js";
export { createProviderModel } from "./providers/provider-model.js";
export { MAX_CACHE_BREAKPOINTS } from "./anthropic/cache-breakpoints.js";
export { contextWindowOf, costOf, isKnownModel, type ModelPrice, priceOf } from "./pricing.js";
export { ApiFailure, isRetriableStatus, RETRIABLE_STATUSES } from "./retry/api-failure.js";
export { retryAfterMs } from "./retry/retry-after.js";
export { backoffDelay, DEFAULT_RETRY_OPTIONS, type RetryOptions, type Sleep, timerSleep, withRetries } from "./retry/with-retries.js";
export {
  loadScenario,
  parseScenario,
  type Scenario,
  ScenarioError,
  type ScenarioFailure,
  type ScenarioQueue,
  type ScenarioStep,
  type ScenarioTurn,
} from "./scripted/scenario.js";
export { ScriptedModel, type ScriptedModelOptions } from "./scripted/scripted-model.js";
