import type { Command } from "commander";
import { budgetOptions } from "../options.js";
import { outputMode } from "../ui/output-mode.js";
import { configFor, openConfiguredStore } from "../runtime.js";
import { driveSession } from "../session/drive.js";
import { chooseModel } from "../session/model.js";
import { startSession } from "../session/start.js";

export interface RunFlags {
  repo?: string;
  hat?: string;
  maxIterations?: number;
  maxCost?: number;
  maxTokens?: number;
  maxRuntime?: number;
  model?: string;
  inPlace?: boolean;
  json?: boolean;
  plain?: boolean;
}

export function registerRun(program: Command): void {
  const command = program
    .command("run")
    .description("start a task: a new branch hatloop/<id> in a git worktree, then the loop")
    .argument("<task...>", "what to do, in plain words")
    .option("-C, --repo <dir>", "the git repository (default: the current directory)")
    .option("--hat <name>", "starting hat (default: planner)");
  budgetOptions(command, false)
    .option("--model <id>", "model id, or scripted:FILE to replay a scenario offline")
    .option("--in-place", "work in the repository's checkout on its current branch (no worktree)")
    .option("--json", "print events as JSON lines")
    .option("--plain", "plain lines even on a terminal (no TUI)")
    .action(async (words: string[], flags: RunFlags, command: Command) => {
      process.exitCode = await runTask(words.join(" "), flags, command);
    });
}

export async function runTask(task: string, flags: RunFlags, command: Command): Promise<number> {
  const config = configFor(command, runConfigFlags(flags));
  const model = chooseModel(config.model);
  const store = await openConfiguredStore(config);
  try {
    const session = await startSession({
      task,
      repoDir: flags.repo ?? process.cwd(),
      inPlace: Boolean(flags.inPlace),
      config,
      modelId: model.id,
      store,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    return await driveSession({ session, store, config, model, output: outputMode(flags) });
  } finally {
    await store.close();
  }
}

export function runConfigFlags(flags: RunFlags): Record<string, unknown> {
  return { hat: flags.hat, maxIterations: flags.maxIterations, maxCostUsd: flags.maxCost, maxTokens: flags.maxTokens, maxRuntime: flags.maxRuntime, model: flags.model };
}
