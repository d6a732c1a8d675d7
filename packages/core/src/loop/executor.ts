import { errorMessage, jsonText, MAX_JSON_DEPTH, type ToolUseBlock } from "@hatloop/context";
import { hatToolNames } from "../hats/hat.js";
import type { Tool, ToolContext, ToolResult, ToolServices } from "../ports/tools.js";
import { tooDeepInput } from "./deep-input.js";
import { report } from "./commit.js";
import { checkCall } from "./health.js";
import { commitHealth } from "./health-notes.js";
import type { ExecutionResult } from "./execution.js";
import type { LoopContext } from "./loop-context.js";
import { redactedPrefix } from "../redaction/redacted-prefix.js";
import { failpoint } from "../failpoint.js";

// Runs the tool calls of one response, in order. Every tool_use gets exactly one tool_result, also
// when a call is refused (not the hat's tool, a repeated call) or the run is interrupted: the API
// rejects a conversation with an unanswered tool call.

export async function executeToolCalls(ctx: LoopContext, calls: ToolUseBlock[], services: ToolServices): Promise<ExecutionResult> {
  const { state, deps } = ctx;
  const allowed = hatToolNames(state.hat, ctx.toolNames);
  const byName = new Map<string, Tool>(deps.tools.map((t) => [t.spec.name, t]));
  const out: ExecutionResult = { blocks: [], records: [], signals: [], signatures: [] };
  for (const call of calls) {
    const started = ctx.now();
    const input = isRecord(call.input) ? call.input : {};
    report(ctx, { type: "tool.call", data: { id: call.id, name: call.name, summary: summarizeInput(input) } });
    let result: ToolResult;
    const tooDeep = tooDeepInput(call.name, input);
    if (deps.control.signal.aborted) {
      result = { isError: true, content: "Not run: hatloop was interrupted before this call ran. Run it again if it is still needed." };
    } else if (tooDeep) {
      result = { isError: true, content: tooDeep };
    } else if (ctx.loopTools.has(call.name)) {
      result = await ctx.loopTools.get(call.name)!.run(input, toolContext(ctx, services));
      out.signals.push(...(result.meta?.signals ?? []));
    } else if (!byName.has(call.name)) {
      result = { isError: true, content: `There is no tool named ${call.name}.` };
    } else if (!allowed.has(call.name)) {
      result = {
        isError: true,
        content: `The ${call.name} tool is not available to the ${state.hat.name} hat (available: ${[...allowed].sort().join(", ")}).`,
      };
    } else {
      result = await runGuarded(ctx, byName.get(call.name)!, call, input, services, out.signatures);
    }
    result = capResult(result, ctx.config.tools.maxResultChars);
    const durationMs = ctx.now() - started;
    out.records.push({ call, result, durationMs });
    out.blocks.push({ type: "tool_result", tool_use_id: call.id, content: result.content, ...(result.isError ? { is_error: true } : {}) });
    report(ctx, {
      type: "tool.result",
      data: {
        id: call.id,
        name: call.name,
        isError: result.isError,
        chars: result.content.length,
        durationMs,
        preview: redactedPrefix(result.content, 160).replace(/\s+/g, " "),
      },
    });
    // From this event resume tells the model a call finished rather than that it was cut off
    // (restore.ts), so it is written before the next call runs and the closing message is stored.
    await deps.flushEvents?.();
    failpoint("after-tool-result");
  }
  return out;
}

/** Repetition check, then the tool; a throwing tool becomes an error result. */
async function runGuarded(
  ctx: LoopContext,
  tool: Tool,
  call: ToolUseBlock,
  input: Record<string, unknown>,
  services: ToolServices,
  ran: string[],
): Promise<ToolResult> {
  const signature = `${call.name}:${stableJson(input)}`;
  const repetition = checkCall(ctx.state.health, signature);
  await commitHealth(ctx, repetition);
  if (repetition.refuse) return { isError: true, content: repetition.refuse };
  ran.push(signature);
  try {
    return await tool.run(input, toolContext(ctx, services));
  } catch (error) {
    return { isError: true, content: `${call.name} failed: ${errorMessage(error)}` };
  }
}

function toolContext(ctx: LoopContext, services: ToolServices): ToolContext {
  return {
    worktree: ctx.state.session.worktreePath,
    sessionId: ctx.state.session.id,
    iteration: ctx.state.iteration,
    hat: ctx.state.hat.name,
    signal: ctx.deps.control.signal,
    services,
  };
}

/** Results above the cap keep their head and a longer tail (where errors and summaries usually are). */
export function capResult(result: ToolResult, maxChars: number): ToolResult {
  if (result.content.length <= maxChars) return result;
  const head = Math.floor(maxChars * 0.3);
  const tail = maxChars - head;
  const cut = result.content.length - head - tail;
  const content = `${result.content.slice(0, head)}\n\n[... ${cut} characters cut by hatloop: the result was ${result.content.length} characters, the cap is ${maxChars} ...]\n\n${result.content.slice(-tail)}`;
  return { ...result, content };
}

export function summarizeInput(input: Record<string, unknown>): string {
  const key = ["path", "command", "pattern", "query", "topic", "file"].find((k) => typeof input[k] === "string");
  const text = key ? String(input[key]) : stableJson(input);
  return text.length > 120 ? `${redactedPrefix(text, 117)}...` : text;
}

/** JSON with sorted keys, for call signatures; past MAX_JSON_DEPTH plain JSON text (no deep recursion). */
function stableJson(value: unknown, depth = 0): string {
  if (depth >= MAX_JSON_DEPTH) return jsonText(value);
  if (Array.isArray(value)) return `[${value.map((v) => stableJson(v, depth + 1)).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(value[k], depth + 1)}`)
      .join(",")}}`;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for undefined, a function or a symbol, though lib.d.ts says string
  return JSON.stringify(value) ?? "null";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
