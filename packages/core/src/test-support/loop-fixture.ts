import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@hatloop/context";
import { defaultConfig, type HatloopConfig } from "../config.js";
import type { LoopEvent } from "../events.js";
import { loadHats } from "../hats/load.js";
import { LoopControl } from "../loop/control.js";
import type { GitPort, LoopDeps, LoopOutcome } from "../loop/deps.js";
import { runLoop } from "../loop/run-loop.js";
import { ModelError, type ModelPort, type ModelRequest, type ModelResponse } from "../ports/model.js";
import type { GateReport, Tool, ToolResult } from "../ports/tools.js";
import { loadPromptComponents } from "../prompt/components.js";
import type { NewSession } from "../store/port.js";
import { memoryStore } from "../store/memory-store.js";
import { createContextManager } from "../context/manager.js";

// Drives whole loops in core's tests: scripted model turns, fake tools and git, the real hats and
// prompt components from prompts/, and the in-memory store.

const promptsDir = fileURLToPath(new URL("../../../../prompts", import.meta.url));

export interface Turn {
  text?: string;
  tools?: Array<{ name: string; input?: Record<string, unknown> }>;
  stopReason?: ModelResponse["stopReason"];
  /** Throw instead of answering. */
  error?: ModelError;
  /** Run before answering (e.g. interrupt the loop). */
  before?: (request: ModelRequest) => void;
}

export function scriptedTurns(turns: Turn[]): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let n = 0;
  return {
    requests,
    async complete(request, onEvent) {
      requests.push(structuredClone({ ...request, signal: undefined }));
      const turn = turns[n++];
      if (!turn) throw new ModelError("script exhausted", null);
      turn.before?.(request);
      if (request.signal?.aborted) throw new ModelError("aborted", null, true);
      if (turn.error) throw turn.error;
      const content: ContentBlock[] = [];
      if (turn.text) {
        for (const chunk of turn.text.match(/[\s\S]{1,7}/g) ?? []) onEvent?.({ type: "text_delta", text: chunk });
        content.push({ type: "text", text: turn.text });
      }
      (turn.tools ?? []).forEach((t, i) => content.push({ type: "tool_use", id: `toolu_${n}_${i}`, name: t.name, input: t.input ?? {} }));
      const input = JSON.stringify(request.messages).length / 4;
      return {
        message: { role: "assistant", content },
        stopReason: turn.stopReason ?? (turn.tools?.length ? "tool_use" : "end_turn"),
        usage: { inputTokens: Math.round(input), outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.01,
        model: request.model,
      };
    },
  };
}

export function fakeTool(name: string, run: (input: Record<string, unknown>) => ToolResult | Promise<ToolResult> = () => ({ isError: false, content: `${name} ok` })): Tool {
  return { spec: { name, description: `fake ${name}`, inputSchema: { type: "object" } }, run: async (input) => run(input) };
}

export const fakeGit: GitPort & { commits: string[] } = {
  commits: [],
  async commitAll(_dir, message) {
    this.commits.push(message);
    return `c${String(this.commits.length).padStart(39, "0")}`;
  },
  async headCommit() {
    return "0".repeat(40);
  },
  async facts() {
    return { branch: "hatloop/test", headCommit: "0".repeat(40), modifiedFiles: [], createdFiles: [], deletedFiles: [], diffstat: { files: 0, insertions: 0, deletions: 0 }, commits: [] };
  },
};

export interface FixtureOptions {
  turns: Turn[];
  tools?: Tool[];
  gates?: GateReport[];
  config?: Partial<HatloopConfig>;
  session?: Partial<NewSession>;
  control?: LoopControl;
  /** Shorthand for the session's iteration budget. */
  maxIterations?: number;
  /** Turn on context management with this working window (tokens); mechanical summaries only. */
  contextWindow?: number;
}

export async function runFixture(options: FixtureOptions) {
  const store = memoryStore();
  const events: LoopEvent[] = [];
  const model = scriptedTurns(options.turns);
  const gates = [...(options.gates ?? [{ passed: true, checks: [] }])];
  const control = options.control ?? new LoopControl();
  const taskComplete: Tool = fakeTool("task_complete", () => ({ isError: false, content: "unused" }));
  taskComplete.run = async (_input, context) => {
    const report = await context.services.runGates();
    return { isError: !report.passed, content: report.passed ? "QUALITY_PASSED" : "QUALITY_BLOCKED", meta: { completion: { passed: report.passed, report } } };
  };
  const tools = options.tools ?? ["read_file", "write_file", "run_command", "list_files", "search", "git_diff", "git_status", "git_log", "recall"].map((n) =>
    fakeTool(n, (input) => ({ isError: false, content: `${n} ok`, meta: n === "write_file" ? { changedFiles: [String(input.path)] } : undefined })),
  );
  await store.sessions.create({
    id: "s-0000-1111",
    task: "make the flaky test deterministic",
    title: "flaky test",
    repoPath: "/repo",
    worktreePath: "/repo",
    branch: "hatloop/s-0000-1",
    baseCommit: "b".repeat(40),
    inPlace: false,
    hat: "planner",
    model: "test-model",
    budgets: { maxIterations: options.maxIterations ?? 50, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null },
    ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
    ...options.session,
  });
  const config = { ...defaultConfig(), ...options.config };
  const context = options.contextWindow
    ? createContextManager({ config: config.context, store, sessionId: "s-0000-1111", repoPath: "/repo", summarizer: null })
    : undefined;
  const deps: LoopDeps = {
    store,
    model,
    tools: [...tools, taskComplete],
    hats: loadHats([`${promptsDir}/hats`]),
    prompts: loadPromptComponents(`${promptsDir}/components`),
    gates: { run: async () => gates.shift() ?? { passed: true, checks: [] } },
    git: { ...fakeGit, commits: [] } as typeof fakeGit,
    control,
    sinks: [(e) => events.push(e)],
    context,
    restub: context?.restub,
  };
  const outcome: LoopOutcome = await runLoop({ sessionId: "s-0000-1111", config }, deps);
  const messages = await store.messages.range("s-0000-1111", 1, 10_000);
  return { outcome, store, events, model, messages, control, deps, session: (await store.sessions.get("s-0000-1111"))!, of: <T extends LoopEvent["type"]>(t: T) => events.filter((e) => e.type === t) as Array<Extract<LoopEvent, { type: T }>> };
}
