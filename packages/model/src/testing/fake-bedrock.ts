import type { ServerResponse } from "node:http";
import { chunkMessage, exceptionMessage } from "./aws-event-stream.js";
import {
  send,
  sseBlocks,
  startCloudFront,
  type CloudRequest,
  type CloudRoute,
  type FakeCloud,
  type FrontRejection,
} from "./cloud-front.js";
import type { FakeAnthropicOptions } from "./fake-anthropic.js";

// A fake Amazon Bedrock runtime for AnthropicBedrock: POST /model/{id}/invoke-with-response-stream
// (and /invoke), SigV4-signed or with a Bedrock API key, anthropic_version in the body and no model
// or stream there: exactly "bedrock-2023-05-31", the value Bedrock documents for Claude (any other
// is a ValidationException, as on Bedrock, even the Messages API's own version header value). Streams are AWS event-stream messages whose chunk payloads carry each Messages
// API event base64-encoded; errors are Bedrock's: {"message"} bodies typed by x-amzn-ErrorType,
// and exception messages mid-stream.

/** The anthropic_version Bedrock's InvokeModel documents for Anthropic Claude. */
const BEDROCK_VERSION = "bedrock-2023-05-31";

const ROUTE = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;

/** HTTP status and exception name Bedrock answers with for what the Messages API fake answered. */
const BEDROCK_ERRORS: Record<number, [number, string]> = {
  400: [400, "ValidationException"],
  401: [403, "AccessDeniedException"],
  403: [403, "AccessDeniedException"],
  404: [404, "ResourceNotFoundException"],
  429: [429, "ThrottlingException"],
  500: [500, "InternalServerException"],
  503: [503, "ServiceUnavailableException"],
  529: [503, "ServiceUnavailableException"],
};

/** Mid-stream: the exception Bedrock sends for an Anthropic stream error type. */
const STREAM_EXCEPTIONS: Record<string, string> = {
  overloaded_error: "serviceUnavailableException",
  rate_limit_error: "throttlingException",
  invalid_request_error: "validationException",
};

export function startFakeBedrock(options: FakeAnthropicOptions): Promise<FakeCloud> {
  return startCloudFront({ basePath: "", route, respond }, options);
}

function route(request: CloudRequest): CloudRoute | FrontRejection {
  const path = request.path.split("?")[0] ?? "";
  const match = ROUTE.exec(path);
  if (request.method !== "POST" || !match) return bedrockError(404, "UnknownOperationException", `no operation at ${path}`);
  const auth = request.headers.authorization ?? "";
  const signed =
    /^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/[a-z0-9-]+\/bedrock\/aws4_request, SignedHeaders=.*host.*, Signature=[0-9a-f]{64}$/;
  if (!signed.test(auth) && !/^Bearer \S+/.test(auth))
    return bedrockError(403, "MissingAuthenticationTokenException", "Missing Authentication Token");
  if (signed.test(auth) && !request.headers["x-amz-date"])
    return bedrockError(403, "IncompleteSignatureException", "x-amz-date is missing");
  for (const field of ["model", "stream"]) {
    if (field in request.body) return bedrockError(400, "ValidationException", `extraneous key [${field}] is not permitted`);
  }
  const version = request.body.anthropic_version;
  if (version === undefined)
    return bedrockError(400, "ValidationException", "Malformed input request: #: required key [anthropic_version] not found");
  if (version !== BEDROCK_VERSION)
    return bedrockError(
      400,
      "ValidationException",
      `anthropic_version ${JSON.stringify(version)} is not supported; use "${BEDROCK_VERSION}"`,
    );
  return { model: decodeURIComponent(match[1]!), stream: match[2] === "invoke-with-response-stream" };
}

async function respond(answer: Response, res: ServerResponse, route: CloudRoute): Promise<void> {
  if (!answer.ok) {
    const body = (await answer.json()) as { error?: { message?: string } };
    const [status, type] = BEDROCK_ERRORS[answer.status] ?? [500, "InternalServerException"];
    const retryAfter = answer.headers.get("retry-after");
    return send(res, bedrockError(status, type, body.error?.message ?? type, retryAfter ? { "retry-after": retryAfter } : {}));
  }
  if (!route.stream) {
    res.writeHead(200, { "content-type": "application/json", "x-amzn-requestid": "fake-request" });
    res.end(await answer.text());
    return;
  }
  res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": "fake-request" });
  res.flushHeaders();
  let usage = { input_tokens: 0, output_tokens: 0 };
  for await (const { event, data } of sseBlocks(answer)) {
    const parsed = JSON.parse(data) as {
      type: string;
      message?: { usage: typeof usage };
      usage?: { output_tokens: number };
      error?: { type: string; message: string };
    };
    if (event === "error" && parsed.error) {
      res.end(exceptionMessage(STREAM_EXCEPTIONS[parsed.error.type] ?? "internalServerException", parsed.error.message));
      return;
    }
    if (parsed.message) usage = { ...parsed.message.usage };
    if (parsed.usage) usage.output_tokens = parsed.usage.output_tokens;
    // Bedrock adds its own metering to the last event.
    const chunk =
      parsed.type === "message_stop"
        ? {
            ...parsed,
            "amazon-bedrock-invocationMetrics": {
              inputTokenCount: usage.input_tokens,
              outputTokenCount: usage.output_tokens,
              invocationLatency: 42,
              firstByteLatency: 7,
            },
          }
        : parsed;
    await new Promise<void>((resolve) => res.write(chunkMessage(chunk), () => resolve()));
  }
  res.end();
}

function bedrockError(status: number, type: string, message: string, headers: Record<string, string> = {}): FrontRejection {
  return {
    status,
    headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, ...headers },
    body: { message },
  };
}
