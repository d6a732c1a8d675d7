import { errorMessage } from "@hatloop/context";
import type { McpServerConfig, Tool, ToolSpec } from "@hatloop/core";
import { McpSetupError } from "./project-servers.js";
import { McpServerConnection, type McpToolInfo } from "./server-connection.js";
import { toToolResult } from "./tool-result-text.js";

// The tools of the session's MCP servers, as hatloop tools named mcp__<server>__<tool> (Claude
// Code's convention), sorted so the tools' cache prefix stays stable. Which hat may use them is
// the hats' rules ("*", "mcp__server__*"); a call's answer is a normal tool result.

export interface McpTools {
  tools: Tool[];
  /** Ends every server (a stdio server's process is stopped, SIGTERM then SIGKILL if it lingers). */
  close(): Promise<void>;
}

/** The API's limit on tool names as Claude Code applies it. */
const MAX_NAME = 64;

export async function connectMcpServers(
  servers: Record<string, McpServerConfig>,
  options: { cwd: string; timeoutMs: number },
): Promise<McpTools> {
  const connections = Object.entries(servers).map(([name, config]) => new McpServerConnection(name, config, options));
  const close = async () => void (await Promise.all(connections.map((c) => c.close())));
  const listed = await Promise.allSettled(connections.map(async (c) => ({ connection: c, tools: await start(c) })));
  const failed = listed.findIndex((r) => r.status === "rejected");
  if (failed >= 0) {
    await close();
    throw new McpSetupError(`MCP server ${connections[failed]!.name}: ${errorMessage((listed[failed] as PromiseRejectedResult).reason)}`);
  }
  const tools = new Map<string, Tool>();
  for (const result of listed) {
    if (result.status !== "fulfilled") continue;
    for (const info of result.value.tools) {
      const tool = mcpTool(result.value.connection, info);
      if (!tools.has(tool.spec.name)) tools.set(tool.spec.name, tool);
    }
  }
  return { tools: [...tools.values()].sort((a, b) => a.spec.name.localeCompare(b.spec.name)), close };
}

async function start(connection: McpServerConnection): Promise<McpToolInfo[]> {
  await connection.connect();
  return connection.listTools();
}

function mcpTool(connection: McpServerConnection, info: McpToolInfo): Tool {
  const name = `mcp__${connection.name}__${info.name}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME);
  const { $schema: _ignored, ...schema } = info.inputSchema;
  const spec: ToolSpec = {
    name,
    description: `${info.description?.trim() || info.name} (from the MCP server ${connection.name})`,
    inputSchema: { ...schema, type: "object" },
  };
  return {
    spec,
    async run(input, context) {
      if (context.signal.aborted) return { isError: true, content: `${name} was not run: the iteration was aborted` };
      try {
        return toToolResult(await connection.call(info.name, input, context.signal));
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
        if (context.signal.aborted) return { isError: true, content: `${name} was aborted` };
        return { isError: true, content: `MCP server ${connection.name} could not run ${info.name}: ${errorMessage(error)}` };
      }
    },
  };
}
