import { resolve } from "node:path";
import type { McpServerConfig } from "@hatloop/core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpCallResult } from "./tool-result-text.js";

// One MCP server for the length of a session: started (stdio) or reached (streamable HTTP) once,
// asked for its tools, called, and closed at the end. A server that dies mid-run is started again
// once, at its next call; until then, and if that fails, its calls answer with an error result.
// The SDK is imported only here, when a session has servers.

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
}

const STDERR_TAIL = 2_000;

export class McpServerConnection {
  private client: Client | null = null;
  private stderrTail = "";
  private closing = false;

  constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    private readonly options: { cwd: string; timeoutMs: number },
  ) {}

  /** Connects (the MCP handshake); throws with the server's last words on stderr when it cannot. */
  async connect(): Promise<void> {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const client = new Client({ name: "hatloop", version: "1" });
    // The transport closes when the process exits or the HTTP session ends: the next call reconnects.
    client.onclose = () => {
      if (this.client === client) this.client = null;
    };
    try {
      await client.connect(await this.transport(), { timeout: this.options.timeoutMs });
    } catch (error) {
      await client.close().catch(() => {});
      throw new Error(this.explain(error), { cause: error });
    }
    this.client = client;
  }

  async listTools(): Promise<McpToolInfo[]> {
    const client = await this.connected();
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: this.options.timeoutMs });
      tools.push(...page.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    const client = await this.connected();
    try {
      return await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.options.timeoutMs });
    } catch (error) {
      throw new Error(this.explain(error), { cause: error });
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => {});
  }

  private async connected(): Promise<Client> {
    if (this.closing) throw new Error("the session is ending");
    if (!this.client) await this.connect();
    return this.client!;
  }

  private async transport(): Promise<Transport> {
    const config = this.config;
    if (config.type === "http") {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    }
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    // The SDK gives the server a minimal environment (PATH, HOME, USER, ...) plus `env`: none of hatloop's keys.
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: resolve(this.options.cwd, config.cwd ?? "."),
      stderr: "pipe",
    });
    // Read, so a chatty server never blocks on a full pipe; kept, for the error message.
    transport.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    return transport;
  }

  /** One line: what failed, and the last line the server wrote on stderr if any. */
  private explain(error: unknown): string {
    const message = causes(error);
    const said = this.stderrTail.trim().split("\n").at(-1)?.trim();
    return said ? `${message} (it said: ${said})` : message;
  }
}

function causes(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (!parts.includes(e.message)) parts.push(e.message);
  }
  return (parts.join(": ") || String(error)).replace(/\s*\n\s*/g, " ");
}
