import type { Provider } from "@hatloop/core";

// What each cloud needs from the environment before a client can be built, read the way the
// provider's own tools read it (the AWS CLI, gcloud, Claude Code). Credentials themselves are
// resolved later by the SDKs' own chains (probe-credentials.ts).

/** A provider that cannot be used as configured; the message is one line, for the user. */
export class ProviderSetupError extends Error {}

export interface CloudSettings {
  region: string;
  /** Vertex only: the Google Cloud project. */
  projectId?: string;
  /** An endpoint other than the cloud's own (a gateway, or a test's fake). */
  baseURL?: string;
}

export function cloudSettings(provider: Exclude<Provider, "anthropic">, env: NodeJS.ProcessEnv): CloudSettings {
  if (provider === "bedrock") {
    const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
    if (!region) throw new ProviderSetupError("--provider bedrock needs AWS_REGION (the region of your Bedrock endpoint, e.g. us-east-1)");
    return { region, ...optional("baseURL", env.ANTHROPIC_BEDROCK_BASE_URL) };
  }
  const region = env.CLOUD_ML_REGION;
  if (!region) throw new ProviderSetupError("--provider vertex needs CLOUD_ML_REGION (e.g. us-east5, europe-west1 or global)");
  const projectId = env.ANTHROPIC_VERTEX_PROJECT_ID || env.GOOGLE_CLOUD_PROJECT;
  if (!projectId) throw new ProviderSetupError("--provider vertex needs ANTHROPIC_VERTEX_PROJECT_ID (your Google Cloud project id)");
  return { region, projectId, ...optional("baseURL", env.ANTHROPIC_VERTEX_BASE_URL) };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}
