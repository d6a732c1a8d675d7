import {
  createContextManager,
  LoopControl,
  loadHats,
  loadPromptComponents,
  type EventSink,
  type GitPort,
  type HatloopConfig,
  type LoopDeps,
  type ModelPort,
  type SessionRecord,
  type Store,
} from "@hatloop/core";
import { commitAll, createToolset, gitFacts, headCommit, type GateBaseline } from "@hatloop/tools";
import { gateCommands, gatePort } from "./gates.js";
import { bundledHatsDir, componentsDir, repoHatsDir } from "./paths.js";

export const gitPort: GitPort = { commitAll, headCommit, facts: gitFacts };

/** Everything runLoop needs for a session, wired to the real tools, git and gates. */
export async function loopDeps(options: {
  session: SessionRecord;
  store: Store;
  model: ModelPort;
  config: HatloopConfig;
  sinks: EventSink[];
  control?: LoopControl;
}): Promise<LoopDeps> {
  const { session, config } = options;
  const commands = await gateCommands(session.worktreePath, config);
  const context = createContextManager({
    config: config.context,
    store: options.store,
    sessionId: session.id,
    repoPath: session.repoPath,
    summarizer: { model: options.model, summaryModel: config.summaryModel },
  });
  return {
    store: options.store,
    model: options.model,
    tools: createToolset({ commandTimeoutMs: config.tools.commandTimeout, maxOutputChars: config.tools.maxResultChars, baseCommit: session.baseCommit }),
    hats: loadHats([bundledHatsDir, repoHatsDir(session.repoPath)]),
    prompts: loadPromptComponents(componentsDir),
    gates: gatePort(session.worktreePath, commands, (session.gateBaseline ?? undefined) as GateBaseline | undefined, config),
    git: gitPort,
    control: options.control ?? new LoopControl(),
    sinks: options.sinks,
    context,
    restub: context.restub,
  };
}
