import type { ToolResultBlock, ToolUseBlock } from "@hatloop/context";
import type { ToolResult } from "../ports/tools.js";
import type { Signal } from "../signals/types.js";

// What running one response's tool calls produced (executor.ts), read by the health checks and the iteration.

interface CallRecord {
  call: ToolUseBlock;
  result: ToolResult;
  durationMs: number;
}

export interface ExecutionResult {
  blocks: ToolResultBlock[];
  records: CallRecord[];
  /** Signals carried by loop-tool calls, applied after the response's text signals. */
  signals: Signal[];
  /** The signatures of the calls that ran (a new one counts as progress). */
  signatures: string[];
}
