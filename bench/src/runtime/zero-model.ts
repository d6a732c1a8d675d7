import { estimateTokens, type ContentBlock } from "@hatloop/context";
import type { ModelPort, ModelRequest, ModelResponse, Tool, ToolResult } from "@hatloop/core";
import { createRng } from "../util/rng.js";
import { codeBlock } from "../context/generator/vocabulary.js";

// A zero-latency scripted model and no-op tools for the runtime bench. The model answers at once with
// parallel read_file calls on new paths (new calls count as progress, so loop health never stops the
// run); while the prompt is under `fillTo` tokens it asks for big results to grow the context fast.
// Both time themselves, so the harness can subtract model and tool time from each iteration.

interface Timed {
  /** Milliseconds spent in the model and the tools since the last take(). */
  take(): number;
}

export interface ZeroModelOptions {
  /** Grow the context to about this many tokens with big results, then use small ones. */
  fillTo: number;
  /** Characters of each small result. Default 1,500. */
  smallChars?: number;
  /** Milliseconds each call takes (default 0: zero latency). Not counted as model work time. */
  delayMs?: number;
  /** Called at the start of each model call (resume timing), saying whether it is still filling. */
  onCall?: (filling: boolean) => void;
}

const BIG_RESULT_CHARS = 28_000;
const FILL_CALLS = 6;

export function zeroModel(options: ZeroModelOptions, clock: TimeSink): ModelPort {
  let n = 0;
  return {
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      n++;
      const prompt = estimateTokens(request.messages, { system: request.system, tools: request.tools });
      const filling = prompt < options.fillTo;
      options.onCall?.(filling);
      const calls = filling ? FILL_CALLS : 1;
      const kind = filling ? "big" : "small";
      const content: ContentBlock[] = [{ type: "text", text: `Reading the next ${calls === 1 ? "file" : "files"} (call ${n}).` }];
      for (let k = 0; k < calls; k++)
        content.push({ type: "tool_use", id: `toolu_rt_${n}_${k}`, name: "read_file", input: { path: `src/${kind}/file-${n}-${k}.ts` } });
      const response: ModelResponse = {
        message: { role: "assistant", content },
        stopReason: "tool_use",
        usage: { inputTokens: prompt, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0,
        model: request.model,
      };
      clock.add(performance.now() - started);
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      return response;
    },
  };
}

export class TimeSink implements Timed {
  private ms = 0;
  add(ms: number): void {
    this.ms += ms;
  }
  take(): number {
    const ms = this.ms;
    this.ms = 0;
    return ms;
  }
}

/** read_file answering from a pool of pre-generated text: big for src/big/*, small otherwise. */
export function noopTools(clock: TimeSink, smallChars = 1_500): Tool[] {
  const rng = createRng(7);
  const text = codeBlock(rng, 2_000).join("\n");
  const big = text.slice(0, BIG_RESULT_CHARS);
  const small = text.slice(0, smallChars);
  const readFile: Tool = {
    spec: { name: "read_file", description: "read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
    async run(input): Promise<ToolResult> {
      const started = performance.now();
      const path = String(input["path"]);
      const result = { isError: false, content: `${path}\n${path.startsWith("src/big/") ? big : small}` };
      clock.add(performance.now() - started);
      return result;
    },
  };
  return [readFile];
}
