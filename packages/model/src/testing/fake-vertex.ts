import type { ServerResponse } from "node:http";
import { send, startCloudFront, type CloudRequest, type CloudRoute, type FakeCloud, type FrontRejection } from "./cloud-front.js";
import type { FakeAnthropicOptions } from "./fake-anthropic.js";

// A fake Vertex AI endpoint for AnthropicVertex: POST
// /v1/projects/P/locations/L/publishers/anthropic/models/M:streamRawPredict (and :rawPredict), a
// Google OAuth bearer token, anthropic_version in the body (exactly "vertex-2023-10-16", the value
// Vertex AI documents for Claude; any other is INVALID_ARGUMENT) and no model there. The stream is the
// Messages API's SSE as it is; quota errors are Google's ({"error": {code, message, status}}).

/** The anthropic_version Vertex AI's rawPredict / streamRawPredict documents for Claude. */
const VERTEX_VERSION = "vertex-2023-10-16";

const ROUTE = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/]+):(rawPredict|streamRawPredict)$/;

export interface FakeVertexOptions extends FakeAnthropicOptions {
  /** The project and region requests must name. */
  project: string;
  region: string;
  /** The access token requests must carry. */
  token: string;
}

export function startFakeVertex(options: FakeVertexOptions): Promise<FakeCloud> {
  return startCloudFront({ basePath: "/v1", route: (request) => route(request, options), respond }, options);
}

function route(request: CloudRequest, options: FakeVertexOptions): CloudRoute | FrontRejection {
  const path = request.path.split("?")[0] ?? "";
  const match = ROUTE.exec(path);
  if (request.method !== "POST" || !match) return googleError(404, "NOT_FOUND", `no method at ${path}`);
  if (request.headers.authorization !== `Bearer ${options.token}`)
    return googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token.");
  const [, project, region, model, method] = match;
  if (project !== options.project || region !== options.region)
    return googleError(
      404,
      "NOT_FOUND",
      `Publisher model projects/${project}/locations/${region}/publishers/anthropic/models/${model} not found.`,
    );
  if ("model" in request.body) return googleError(400, "INVALID_ARGUMENT", "model: Extra inputs are not permitted");
  const version = request.body.anthropic_version;
  if (version === undefined) return googleError(400, "INVALID_ARGUMENT", "anthropic_version: Field required");
  if (version !== VERTEX_VERSION)
    return googleError(400, "INVALID_ARGUMENT", `anthropic_version ${JSON.stringify(version)} is not supported; use "${VERTEX_VERSION}"`);
  const stream = method === "streamRawPredict";
  if (Boolean(request.body.stream) !== stream) return googleError(400, "INVALID_ARGUMENT", `stream must be ${stream} for :${method}`);
  return { model: decodeURIComponent(model!), stream };
}

async function respond(answer: Response, res: ServerResponse): Promise<void> {
  if (answer.status === 429) {
    const retryAfter = answer.headers.get("retry-after");
    return send(res, {
      ...googleError(429, "RESOURCE_EXHAUSTED", "Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model."),
      headers: retryAfter ? { "retry-after": retryAfter } : {},
    });
  }
  res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
  res.flushHeaders();
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
  }
  res.end();
}

function googleError(code: number, status: string, message: string): FrontRejection {
  return { status: code, body: { error: { code, message, status } } };
}
