import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from "./fake-anthropic.js";

// The cloud fakes (Bedrock, Vertex) are fronts: each checks its cloud's wire shape (URL, auth, body),
// turns the request back into a Messages API one for a FakeAnthropic behind it (its replies, its
// request rules), and writes the answer in the cloud's framing.

export interface CloudRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface FakeCloud {
  /** The base URL to give the cloud's SDK. */
  url: string;
  /** Every request as the cloud received it. */
  requests: CloudRequest[];
  /** The Messages API fake behind the front: its requests are the translated ones. */
  inner: FakeAnthropic;
  close(): Promise<void>;
}

/** A request the front turns away, in the cloud's own error shape. */
export interface FrontRejection {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface CloudRoute {
  model: string;
  stream: boolean;
}

export interface CloudFront {
  /** The base URL path the SDK is given ("" or "/v1"). */
  basePath: string;
  /** Parses and checks a request (URL, auth, the exact anthropic_version); a rejection is answered as it is. */
  route(request: CloudRequest): CloudRoute | FrontRejection;
  /** Writes the inner fake's answer in the cloud's framing. */
  respond(answer: Response, res: ServerResponse, route: CloudRoute): Promise<void>;
}

export async function startCloudFront(front: CloudFront, options: FakeAnthropicOptions): Promise<FakeCloud> {
  const inner = await startFakeAnthropic(options);
  const requests: CloudRequest[] = [];
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, { status: 500, body: { message: `fake cloud failed: ${String(error)}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const request: CloudRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])),
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
    };
    requests.push(request);
    const route = front.route(request);
    if ("status" in route) return send(res, route);
    const { anthropic_version: _version, ...body } = request.body;
    const answer = await fetch(`${inner.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...body, model: route.model, ...(route.stream ? { stream: true } : {}) }),
    });
    await front.respond(answer, res, route);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${front.basePath}`,
    requests,
    inner,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await inner.close();
    },
  };
}

export function send(res: ServerResponse, rejection: FrontRejection): void {
  res.writeHead(rejection.status, { "content-type": "application/json", ...rejection.headers });
  res.end(JSON.stringify(rejection.body));
}

/** Server-sent events as they arrive: { event, data } per blank-line-terminated block. */
export async function* sseBlocks(answer: Response): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
      yield { event, data };
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
