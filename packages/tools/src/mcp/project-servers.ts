import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "@hatloop/context";
import { mcpServerNameSchema, mcpServerSchema, type McpServerConfig } from "@hatloop/core";
import { z } from "zod";
import { childEnv } from "../shell/child-env.js";
import type { SandboxPolicy } from "../sandbox/policy.js";
import { sandboxLaunch } from "../sandbox/runtime.js";
import { isolated } from "../shell/isolation.js";

// The repository's `.mcp.json`, in Claude Code's format: {"mcpServers": {name: server}}, with
// ${VAR} and ${VAR:-default} expanded from the environment in commands, arguments, env values, URLs
// and headers, as Claude Code does. Other top-level keys are Claude Code's business and ignored.

const PROJECT_MCP_FILE = ".mcp.json";

/** An MCP server that cannot be used (its definition, or its start); the message is one line, for the user. */
export class McpSetupError extends Error {}

const projectFileSchema = z.object({ mcpServers: z.record(mcpServerNameSchema, z.unknown()).default({}) });

/** The servers `.mcp.json` in `dir` defines (none when there is no file), their variables expanded. */
export function readProjectServers(dir: string, env: NodeJS.ProcessEnv): Record<string, McpServerConfig> {
  const file = join(dir, PROJECT_MCP_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new McpSetupError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpSetupError(`${file} is not valid JSON: ${errorMessage(error)}`);
  }
  const parsed = projectFileSchema.safeParse(json);
  if (!parsed.success) throw new McpSetupError(`${file}: ${describe(parsed.error)}`);
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(parsed.data.mcpServers)) {
    const server = mcpServerSchema.safeParse(expand(raw, env, `${file}: mcpServers.${name}`));
    if (!server.success) throw new McpSetupError(`${file}: mcpServers.${name}: ${describe(server.error)}`);
    servers[name] = server.data;
  }
  return servers;
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Every string in `value` with its ${VAR} / ${VAR:-default} replaced; an unset variable without a default is an error. */
function expand(value: unknown, env: NodeJS.ProcessEnv, where: string): unknown {
  if (typeof value === "string") {
    return value.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
      const set = env[name];
      if (set !== undefined) return set;
      if (fallback !== undefined) return fallback;
      throw new McpSetupError(`${where}: the environment variable ${name} is not set`);
    });
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, env, where));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, env, where)]));
  return value;
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}` : error.message;
}

/**
 * A session's servers: the `.mcp.json` of the first of `dirs` that has one (the worktree, then the
 * user's checkout, where an uncommitted one lives), unless turned off; then hatloop's config, which
 * wins on a name. The agent can write `.mcp.json` in the worktree, so its ${VAR}s are expanded from
 * the environment the agent's commands get (`childEnv` with `passEnv`), not from `env` whole: else
 * `${ANTHROPIC_API_KEY}` in a server's argument would hand the agent any credential of hatloop's on
 * the next start or resume. For the same reason its stdio servers run as confined as the agent's
 * own commands: in the sandbox of `confine.sandbox`, else isolated (isolation.ts) with `confine.isolate`.
 */
export async function sessionServers(
  dirs: string[],
  mcp: { servers: Record<string, McpServerConfig>; projectFile: boolean },
  env: NodeJS.ProcessEnv,
  passEnv: readonly string[],
  confine: { isolate?: boolean; sandbox?: SandboxPolicy } = {},
): Promise<Record<string, McpServerConfig>> {
  const dir = mcp.projectFile ? dirs.find((d) => existsSync(join(d, PROJECT_MCP_FILE))) : undefined;
  const project = dir ? readProjectServers(dir, childEnv(env, passEnv)) : {};
  const started: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(project)) started[name] = await confined(server, confine);
  return { ...started, ...mcp.servers };
}

async function confined(server: McpServerConfig, confine: { isolate?: boolean; sandbox?: SandboxPolicy }): Promise<McpServerConfig> {
  if (server.type === "http") return server;
  if (confine.sandbox) {
    // The server lives as long as the session's run; so does its network allowance (not released).
    const { argv } = await sandboxLaunch(`exec ${[server.command, ...server.args].map(shellQuote).join(" ")}`, confine.sandbox);
    const [command, ...args] = argv;
    return { ...server, command, args };
  }
  if (!confine.isolate) return server;
  const [command, ...args] = isolated([server.command, ...server.args]);
  return { ...server, command, args };
}

const shellQuote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
