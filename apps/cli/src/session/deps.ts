import {
  createContextManager,
  LoopControl,
  type EventSink,
  type GitPort,
  type HatloopConfig,
  type LoopDeps,
  type ModelPort,
  type SummaryPricing,
  type SessionRecord,
  type Store,
  type Tool,
} from "@hatloop/core";
import { loadGraderPrompt, loadHats, loadPromptComponents } from "./prompt-files.js";
import { cloudModelId, priceOf } from "@hatloop/model";
import { childEnv, commitAll, createToolset, gitFacts, headCommit, worktreeDiff, type GateBaseline } from "@hatloop/tools";
import { gateCommands, gatePort } from "./gates.js";
import { sandboxFor } from "./sandbox.js";
import { bundledGraderPrompt, bundledHatsDir, componentsDir, repoGraderPrompt, repoHatsDir } from "./paths.js";

export const gitPort: GitPort = { commitAll, headCommit, facts: gitFacts };

/** Everything runLoop needs for a session, wired to the real tools, git and gates. */
export async function loopDeps(options: {
  session: SessionRecord;
  store: Store;
  model: ModelPort;
  /** The session's MCP servers' tools, after the built-in ones. */
  mcpTools?: Tool[];
  config: HatloopConfig;
  sinks: EventSink[];
  control?: LoopControl;
  /** Git for checkpoints; default gitPort (a fleet worker's also pushes the task branch). */
  git?: GitPort;
  /** Who runs the session, for session.start. */
  runner?: string;
}): Promise<LoopDeps> {
  const { session, config } = options;
  const commands = await gateCommands(session.worktreePath, config);
  const sandbox = await sandboxFor(session.worktreePath, config);
  // On a cloud, the summary model in the cloud's form, where the main model runs (else the main model itself).
  const summaryModel = cloudModelId(config.provider, config.summaryModel, session.model) ?? session.model;
  const context = createContextManager({
    config: config.context,
    store: options.store,
    sessionId: session.id,
    repoPath: session.repoPath,
    summarizer: { model: options.model, summaryModel },
    summaryPricing: summaryPricing(session.model, summaryModel),
  });
  return {
    store: options.store,
    model: options.model,
    tools: [
      ...createToolset({
        commandTimeoutMs: config.tools.commandTimeout,
        maxOutputChars: config.tools.maxResultChars,
        baseCommit: session.baseCommit,
        env: childEnv(process.env, config.tools.passEnv),
        isolate: config.tools.isolate === "auto",
        ...(sandbox ? { sandbox } : {}),
      }),
      ...(options.mcpTools ?? []),
    ],
    hats: loadHats([bundledHatsDir, repoHatsDir(session.repoPath)]),
    prompts: loadPromptComponents(componentsDir),
    gates: gatePort(session.worktreePath, commands, (session.gateBaseline ?? undefined) as GateBaseline | undefined, config, sandbox),
    git: options.git ?? gitPort,
    control: options.control ?? new LoopControl(),
    sinks: options.sinks,
    context,
    restub: context.restub,
    ...(options.runner === undefined ? {} : { runner: options.runner }),
    grader: {
      prompt: loadGraderPrompt([repoGraderPrompt(session.repoPath), bundledGraderPrompt]),
      // Unset: the session's model; a configured one in the cloud's form, where the main model runs.
      model: config.grader.model
        ? (cloudModelId(config.provider, config.grader.model, session.model) ?? config.grader.model)
        : session.model,
      diff: () => worktreeDiff(session.worktreePath, session.baseCommit, config.grader.maxDiffChars),
    },
  };
}

/** What a pruning's summary and fact-extraction calls answer with, about (core/context/summarize.ts, facts.ts). */
const SUMMARY_OUTPUT_TOKENS = 1_900;
/** Their two prompts quote at most 60,000 + 24,000 characters of the dropped turns. */
const SUMMARY_PROMPT_TOKENS = 21_000;

/** What a pruning's two summary-model calls cost, in the main model's input tokens, for the cost policy. */
function summaryPricing(model: string, summaryModel: string): SummaryPricing {
  const main = priceOf(model).inputPerMTok;
  const side = priceOf(summaryModel);
  return {
    inputRatio: side.inputPerMTok / main,
    maxInputTokens: SUMMARY_PROMPT_TOKENS,
    outputTokens: (SUMMARY_OUTPUT_TOKENS * side.outputPerMTok) / main,
  };
}
