import type { HatloopConfig, SessionRecord } from "@hatloop/core";
import { connectMcpServers, McpSetupError, sessionServers, type McpTools } from "@hatloop/tools";
import { usageError } from "../errors.js";
import { sandboxFor } from "./sandbox.js";

// The session's MCP servers (docs/mcp.md), started for one run of its loop and closed after it. A
// server that cannot start stops the run before its first iteration, in one line (exit 2).

export async function openMcpTools(session: SessionRecord, config: HatloopConfig): Promise<McpTools> {
  try {
    const sandbox = await sandboxFor(session.worktreePath, config);
    const servers = await sessionServers([session.worktreePath, session.repoPath], config.mcp, process.env, config.tools.passEnv, {
      isolate: config.tools.isolate === "auto",
      ...(sandbox ? { sandbox } : {}),
    });
    return await connectMcpServers(servers, { cwd: session.worktreePath, timeoutMs: config.mcp.timeout });
  } catch (error) {
    throw error instanceof McpSetupError ? usageError(error.message) : error;
  }
}
