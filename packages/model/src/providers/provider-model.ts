import type { Provider } from "@hatloop/core";
import type { ClientOptions as BedrockOptions } from "@anthropic-ai/bedrock-sdk";
import type { ClientOptions as VertexOptions } from "@anthropic-ai/vertex-sdk";
import { AnthropicModel, type AnthropicModelOptions } from "../anthropic/anthropic-model.js";
import { isRegionalEndpoint } from "./cloud-model-ids.js";
import { cloudSettings } from "./cloud-settings.js";
import { CredentialProbe } from "./probe-credentials.js";

// A model on the chosen provider. The cloud SDKs subclass the Anthropic client (same messages API,
// their own URLs, signing and stream framing), so the one AnthropicModel serves all three; each
// cloud's SDK is imported only when it is used.

/**
 * The `anthropic_version` each cloud documents for Claude's request body (Bedrock InvokeModel,
 * Vertex AI rawPredict/streamRawPredict). The SDKs (1.x) copy the Messages API's own
 * `anthropic-version` header ("2026-10-21") into the body instead, which neither cloud documents;
 * setting the header on the cloud client makes the SDK copy the documented value (and it then
 * drops the header, as before).
 */
const CLOUD_API_VERSIONS = { bedrock: "bedrock-2023-05-31", vertex: "vertex-2023-10-16" } as const;

export interface ProviderModelOptions extends Pick<AnthropicModelOptions, "retry" | "timeoutMs" | "streamIdleTimeoutMs"> {
  provider: Provider;
  /** The session's model id, in the provider's form (cloudModelId). */
  model: string;
  env?: NodeJS.ProcessEnv;
  /** Where the cloud SDK's client gets credentials other than from the environment (an AWS chain, a Google auth client). */
  bedrock?: Pick<BedrockOptions, "providerChainResolver">;
  vertex?: Pick<VertexOptions, "authClient" | "googleAuth">;
}

/** Builds the model and, for a cloud, resolves its credentials now (ProviderSetupError when there are none). */
export async function createProviderModel(options: ProviderModelOptions): Promise<AnthropicModel> {
  const { provider, model, env = process.env } = options;
  const common = { retry: options.retry, timeoutMs: options.timeoutMs, streamIdleTimeoutMs: options.streamIdleTimeoutMs };
  if (provider === "anthropic") return new AnthropicModel(common);
  const settings = cloudSettings(provider, env);
  const probe = new CredentialProbe();
  const base = {
    baseURL: settings.baseURL,
    timeout: options.timeoutMs,
    maxRetries: 0,
    fetch: probe.fetch,
    defaultHeaders: { "anthropic-version": CLOUD_API_VERSIONS[provider] },
  };
  const probeRequest = { model, max_tokens: 1, messages: [{ role: "user" as const, content: "." }] };
  if (provider === "bedrock") {
    const { AnthropicBedrock } = await import("@anthropic-ai/bedrock-sdk");
    // Bedrock's bearer key (AWS_BEARER_TOKEN_BEDROCK) is read from `env`; without one, SigV4 with the AWS chain.
    const client = new AnthropicBedrock({
      ...base,
      awsRegion: settings.region,
      apiKey: env.AWS_BEARER_TOKEN_BEDROCK ?? null,
      ...options.bedrock,
    });
    await probe.check(() => client.messages.create(probeRequest), {
      missing: (cause) =>
        `no AWS credentials for Bedrock (${cause}); set AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK`,
    });
    return new AnthropicModel({ ...common, client, pricing: { regional: isRegionalEndpoint(provider, model, settings.region) } });
  }
  const { AnthropicVertex } = await import("@anthropic-ai/vertex-sdk");
  const client = new AnthropicVertex({ ...base, region: settings.region, projectId: settings.projectId, ...options.vertex });
  await probe.check(() => client.messages.create(probeRequest), {
    missing: (cause) =>
      `no Google credentials for Vertex AI (${cause}); run gcloud auth application-default login, or set GOOGLE_APPLICATION_CREDENTIALS to a key file`,
    unreachable: (cause) =>
      `Google credentials for Vertex AI were found, but no access token could be fetched (${cause}): check the network connection (logging in again would not help)`,
    refused: (cause) =>
      `Google refused the credentials for Vertex AI (${cause}); renew them: gcloud auth application-default login, or a new key in GOOGLE_APPLICATION_CREDENTIALS`,
  });
  return new AnthropicModel({ ...common, client, pricing: { regional: isRegionalEndpoint(provider, model, settings.region) } });
}
