import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isBlankText, validatePairing, type ContentBlock } from "@hatloop/context";
import { defaultConfig, type HatloopConfig } from "../config.js";
import type { LoopEvent } from "../events.js";
import { LoopControl } from "../loop/control.js";
import type { LoopDeps, LoopOutcome } from "../loop/deps.js";
import type { GitPort } from "../ports/git.js";
import { runLoop } from "../loop/run-loop.js";
import { ModelError, type ModelPort, type ModelRequest, type ModelResponse } from "../ports/model.js";
import type { GateReport, Tool, ToolResult } from "../ports/tools.js";
import { loadHats, loadPromptComponents } from "./prompt-files.js";
import type { NewSession, Store } from "../store/port.js";
import { memoryStore } from "../store/memory-store.js";
import { createContextManager, type ContextManagerOptions } from "../context/manager.js";

// Drives whole loops in core's tests: scripted model turns, fake tools and git, the real hats and
// prompt components from prompts/, and the in-memory store (or a store given, e.g. the database's).

const promptsDir = fileURLToPath(new URL("../../../../prompts", import.meta.url));

export interface Turn {
  text?: string;
  tools?: Array<{ name: string; input?: Record<string, unknown> }>;
  stopReason?: ModelResponse["stopReason"];
  /** Throw instead of answering (after streaming `abandoned`, if given). */
  error?: ModelError;
  /** Text streamed and then given up on, each followed by a retry event: a stream that broke and was asked again. */
  abandoned?: string[];
  /** Run before answering (e.g. interrupt the loop). */
  before?: (request: ModelRequest) => void;
  /** Raw content blocks added after text and tools (e.g. a whitespace-only text block). */
  blocks?: ContentBlock[];
  /** Fields of the response to set as given (refusal, truncatedTools, usage...). */
  response?: Partial<ModelResponse>;
}

/** Tool ids unique across every run of a test file, as the API's are (a resumed session must not reuse one). */
let toolIds = 0;

function scriptedTurns(turns: Turn[]): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let n = 0;
  return {
    requests,
    async complete(request, onEvent) {
      requests.push(structuredClone({ ...request, signal: undefined }));
      // What the real API rejects, this fake rejects too: a loop test cannot pass on an invalid request.
      const problem = requestProblem(request.messages);
      if (problem) throw new ModelError(`Anthropic API error 400 invalid_request_error: ${problem}`, 400);
      const turn = turns[n++];
      if (!turn) throw new ModelError("script exhausted", null);
      turn.before?.(request);
      if (request.signal?.aborted) throw new ModelError("aborted", null, true);
      const stream = (text: string) => {
        for (const chunk of text.match(/[\s\S]{1,7}/g) ?? []) onEvent?.({ type: "text_delta", text: chunk });
      };
      (turn.abandoned ?? []).forEach((text, i) => {
        stream(text);
        onEvent?.({ type: "retry", attempt: i + 1, waitMs: 0, status: 529, reason: "overloaded_error" });
      });
      if (turn.error) throw turn.error;
      const content: ContentBlock[] = [];
      if (turn.text) {
        stream(turn.text);
        content.push({ type: "text", text: turn.text });
      }
      content.push(...(turn.blocks ?? []));
      (turn.tools ?? []).forEach((t, i) =>
        content.push({ type: "tool_use", id: `toolu_${++toolIds}_${i}`, name: t.name, input: t.input ?? {} }),
      );
      const input = JSON.stringify(request.messages).length / 4;
      return {
        message: { role: "assistant", content },
        stopReason: turn.stopReason ?? (turn.tools?.length ? "tool_use" : "end_turn"),
        usage: { inputTokens: Math.round(input), outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.01,
        model: request.model,
        ...turn.response,
      };
    },
    maxOutputTokens: () => 64_000,
  };
}

function requestProblem(messages: ModelRequest["messages"]): string | null {
  const blank = messages.some((m) => typeof m.content !== "string" && m.content.some(isBlankText));
  if (blank) return "messages: text content blocks must contain non-whitespace text";
  const pairing = validatePairing(messages)[0];
  return pairing ? `messages.${pairing.index}: ${pairing.detail}` : null;
}

export function fakeTool(
  name: string,
  run: (input: Record<string, unknown>) => ToolResult | Promise<ToolResult> = () => ({ isError: false, content: `${name} ok` }),
): Tool {
  return { spec: { name, description: `fake ${name}`, inputSchema: { type: "object" } }, run: async (input) => run(input) };
}

/** A read_file whose every result is ~2k characters: fills a small context window in a few iterations. */
export const bulkyRead = fakeTool("read_file", (input) => ({
  isError: false,
  content: `// ${String(input.path)}\n${"export const x = 1; // filler for the context window\n".repeat(40)}`,
}));

/** `n` turns, each reading another file (f<from>.ts, f<from+1>.ts, ...). */
export function readTurns(n: number, from = 0): Turn[] {
  return Array.from({ length: n }, (_, i) => ({
    text: `Reading ${from + i}.`,
    tools: [{ name: "read_file", input: { path: `f${from + i}.ts` } }],
  }));
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
    return {
      branch: "hatloop/test",
      headCommit: "0".repeat(40),
      modifiedFiles: [],
      createdFiles: [],
      deletedFiles: [],
      diffstat: { filesChanged: 0, insertions: 0, deletions: 0 },
      commits: [],
    };
  },
};

type MemoryStore = ReturnType<typeof memoryStore>;

export interface FixtureOptions<S extends Store = MemoryStore> {
  turns: Turn[];
  tools?: Tool[];
  gates?: GateReport[];
  config?: Partial<HatloopConfig>;
  session?: Partial<NewSession>;
  control?: LoopControl;
  /** Shorthand for the session's iteration budget. */
  maxIterations?: number;
  /** Turn on context management with this working window (tokens); mechanical summaries unless `summarizer`. */
  contextWindow?: number;
  /** The summary model of context management (with `config.context.llmSummary`). */
  summarizer?: ContextManagerOptions["summarizer"];
  /** A store that already holds the session (a resume); default: a new one with a new session. */
  store?: S;
  /** Create the session in the given store (a database store for a first run). */
  createSession?: boolean;
  /** Someone watches the run (the TUI): questions wait for an answer. */
  interactive?: boolean;
  /** Wire the grader of acceptance criteria (prompts/grader.md, model "grader-model"); its answers are turns in `turns`. */
  grader?: boolean;
}

/** The patch the fixture's grader is shown. */
export const GRADER_DIFF = "diff --git a/docs/guide.md b/docs/guide.md\n+# Migration guide";

export async function runFixture<S extends Store = MemoryStore>(options: FixtureOptions<S>) {
  const store = options.store ?? (memoryStore() as unknown as S);
  const events: LoopEvent[] = [];
  const model = scriptedTurns(options.turns);
  const gates = [...(options.gates ?? [{ passed: true, checks: [] }])];
  const control = options.control ?? new LoopControl();
  const taskComplete: Tool = fakeTool("task_complete", () => ({ isError: false, content: "unused" }));
  taskComplete.run = async (_input, context) => {
    const report = await context.services.runGates();
    return {
      isError: !report.passed,
      content: report.passed ? "QUALITY_PASSED" : "QUALITY_BLOCKED",
      meta: { completion: { passed: report.passed, report } },
    };
  };
  const tools =
    options.tools ??
    ["read_file", "write_file", "run_command", "list_files", "search", "git_diff", "git_status", "git_log", "recall"].map((n) =>
      fakeTool(n, (input) => ({
        isError: false,
        content: `${n} ok`,
        meta: n === "write_file" ? { changedFiles: [String(input.path)] } : undefined,
      })),
    );
  if (!options.store || options.createSession)
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
  // A resumed session gets the budget the test asks for, as `hatloop resume --max-iterations` would.
  if (options.store && options.maxIterations) {
    const session = (await store.sessions.get("s-0000-1111"))!;
    await store.sessions.update(session.id, { budgets: { ...session.budgets, maxIterations: options.maxIterations } });
  }
  const config = { ...defaultConfig(), ...options.config };
  const context = options.contextWindow
    ? createContextManager({
        config: config.context,
        store,
        sessionId: "s-0000-1111",
        repoPath: "/repo",
        summarizer: options.summarizer ?? null,
      })
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
    ...(options.grader
      ? { grader: { prompt: readFileSync(`${promptsDir}/grader.md`, "utf8"), model: "grader-model", diff: async () => GRADER_DIFF } }
      : {}),
  };
  const outcome: LoopOutcome = await runLoop({ sessionId: "s-0000-1111", config, interactive: options.interactive ?? false }, deps);
  const messages = await store.messages.range("s-0000-1111", 1, 10_000);
  return {
    outcome,
    store,
    events,
    model,
    messages,
    control,
    deps,
    session: (await store.sessions.get("s-0000-1111"))!,
    of: <T extends LoopEvent["type"]>(t: T) => events.filter((e) => e.type === t) as Array<Extract<LoopEvent, { type: T }>>,
  };
}
