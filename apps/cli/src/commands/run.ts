import type { Command } from "commander";
import { duration } from "@hatloop/core";
import { InvalidArgumentError } from "commander";
import { positiveInt, positiveNumber } from "../options.js";
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
}

export function registerRun(program: Command): void {
  program
    .command("run")
    .description("start a task: a new branch hatloop/<id> in a git worktree, then the loop")
    .argument("<task...>", "what to do, in plain words")
    .option("-C, --repo <dir>", "the git repository (default: the current directory)")
    .option("--hat <name>", "starting hat (default: planner)")
    .option("--max-iterations <n>", "budget: model calls", positiveInt)
    .option("--max-cost <usd>", "budget: dollars", positiveNumber)
    .option("--max-tokens <n>", "budget: tokens processed", positiveInt)
    .option("--max-runtime <duration>", "budget: wall time, e.g. 45m or 4h", durationOption)
    .option("--model <id>", "model id, or scripted:FILE to replay a scenario offline")
    .option("--in-place", "work in the repository's checkout on its current branch (no worktree)")
    .option("--json", "print events as JSON lines")
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
    return await driveSession({ session, store, config, model, output: flags.json ? "json" : "plain" });
  } finally {
    await store.close();
  }
}

export function runConfigFlags(flags: RunFlags): Record<string, unknown> {
  return { hat: flags.hat, maxIterations: flags.maxIterations, maxCostUsd: flags.maxCost, maxTokens: flags.maxTokens, maxRuntime: flags.maxRuntime, model: flags.model };
}

export function durationOption(value: string): number {
  const parsed = duration.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError("expected a duration such as 90s, 45m or 4h");
  return parsed.data;
}
