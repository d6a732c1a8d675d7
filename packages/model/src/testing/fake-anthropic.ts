import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { requestProblems } from "../request-rules/validate-request.js";
import { errorTypeOfStatus } from "../retry/api-failure.js";
import { formatSse, messageBody, resolveReply, sseEvents } from "./fake-events.js";
import { thinkingInSse } from "./raw-thinking.js";
import {
  estimateTokens,
  type FakeErrorReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeReplyFn,
  isErrorReply,
  isRawReply,
  type FakeRawReply,
  type RecordedRequest,
} from "./fake-replies.js";

// A fake Messages API that the real SDK talks to over HTTP: POST /v1/messages (streaming or not)
// answers with the next queued reply; POST /v1/messages/count_tokens answers with an estimate.
// Every request is recorded, so tests can check what was actually sent.

export interface FakeAnthropicOptions {
  /** Answers for /v1/messages in order; an entry may be a function of the request. Or one function for all. */
  replies: Array<FakeReply | FakeReplyFn> | FakeReplyFn;
  /** Input tokens for count_tokens; defaults to ~4 characters per token of system, messages and tools. */
  countTokens?: (request: RecordedRequest) => number;
  port?: number;
  /**
   * Answer a request that breaks the API's documented rules with the 400 the API would give
   * (request-rules/validate-request.ts). Default true; a test of a deliberately broken request turns it off.
   */
  validate?: boolean;
}

export interface FakeAnthropic {
  /** Base URL for the SDK / ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Every request received, count_tokens included, in arrival order. */
  requests: RecordedRequest[];
  /** Only the /v1/messages requests. */
  messageRequests(): RecordedRequest[];
  /** Requests answered 400 because they broke a rule, with the rule's words. */
  rejected: Array<{ request: RecordedRequest; problems: string[] }>;
  close(): Promise<void>;
}

export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const rejected: FakeAnthropic["rejected"] = [];
  // Thinking this server streamed, by signature: it must come back byte for byte.
  const issuedThinking = new Map<string, string>();
  let served = 0;

  async function nextReply(request: RecordedRequest): Promise<FakeReply> {
    const index = served++;
    const entry = typeof options.replies === "function" ? options.replies : options.replies[index];
    if (entry === undefined) {
      return { error: { status: 400, message: `fake Anthropic server: no reply queued for request #${index + 1}` } };
    }
    return typeof entry === "function" ? entry(request, index) : entry;
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, { error: { status: 500, message: `fake server failed: ${String(error)}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      headers: flattenHeaders(req),
      body: raw ? (JSON.parse(raw) as RecordedRequest["body"]) : { model: "", messages: [] },
    };
    requests.push(recorded);
    if (req.method !== "POST") return sendError(res, { error: { status: 405, type: "invalid_request_error" } });
    const problems =
      options.validate === false ? [] : requestProblems(recorded.body, { issuedThinking, countOnly: path === "/v1/messages/count_tokens" });
    if (problems.length) {
      rejected.push({ request: recorded, problems });
      return sendError(res, { error: { status: 400, type: "invalid_request_error", message: problems[0] } });
    }
    if (path === "/v1/messages/count_tokens") {
      const { system, messages, tools } = recorded.body;
      const tokens = options.countTokens?.(recorded) ?? estimateTokens({ system, messages, tools });
      return sendJson(res, 200, { input_tokens: tokens });
    }
    if (path !== "/v1/messages") return sendError(res, { error: { status: 404, message: `no route ${path}` } });
    const reply = await nextReply(recorded);
    if (isErrorReply(reply)) return sendError(res, reply);
    if (isRawReply(reply)) {
      for (const [signature, thinking] of thinkingInSse(reply.raw.body)) issuedThinking.set(signature, thinking);
      return sendRaw(res, reply);
    }
    const index = requests.filter((r) => r.path === "/v1/messages").length;
    const resolved = resolveReply(reply, recorded, index);
    for (const block of resolved.blocks) if (block.type === "thinking") issuedThinking.set(block.signature, block.thinking);
    if (recorded.body.stream !== true) return sendJson(res, 200, messageBody(resolved), reply.headers);
    await streamReply(res, reply, sseEvents(reply, resolved));
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messageRequests: () => requests.filter((r) => r.path === "/v1/messages"),
    rejected,
    close: () =>
      new Promise<void>((resolve) => {
        // The SDK keeps connections alive; close them or close() waits for their idle timeout.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function streamReply(res: ServerResponse, reply: FakeMessageReply, events: ReturnType<typeof sseEvents>): Promise<void> {
  let clientGone = false;
  res.on("close", () => {
    clientGone = true;
  });
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_fake", ...reply.headers });
  res.flushHeaders();
  for (let sent = 0; sent <= events.length; sent++) {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
    if (clientGone) return;
    if (reply.disconnectAfterEvents === sent) {
      res.socket?.destroy();
      return;
    }
    if (reply.streamError?.afterEvents === sent) {
      const { type, message } = reply.streamError;
      res.end(formatSse({ event: "error", data: { type: "error", error: { type, message: message ?? type } } }));
      return;
    }
    const event = events[sent];
    if (event === undefined) break;
    if (reply.eventDelayMs && sent > 0) await sleep(reply.eventDelayMs);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
    if (clientGone) return;
    // Awaiting the write lets a later socket.destroy() cut the stream after these bytes, not before.
    await new Promise<void>((resolve) => res.write(formatSse(event), () => resolve()));
  }
  res.end();
}

function sendRaw(res: ServerResponse, reply: FakeRawReply): void {
  const status = reply.raw.status ?? 200;
  const type = status === 200 ? "text/event-stream" : "application/json";
  res.writeHead(status, { "content-type": type, "request-id": "req_fake", ...reply.raw.headers });
  res.end(reply.raw.body);
}

function sendError(res: ServerResponse, reply: FakeErrorReply): void {
  const { status, headers } = reply.error;
  const type = reply.error.type ?? errorTypeOfStatus(status);
  sendJson(res, status, { type: "error", error: { type, message: reply.error.message ?? type }, request_id: "req_fake" }, headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": "req_fake", ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
