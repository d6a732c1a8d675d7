import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { errorMessage } from "@hatloop/context";
import { acceptanceCriteria, withCriteria, type SessionRecord, type Store } from "@hatloop/core";
import { closeSandbox } from "@hatloop/tools";
import { usageError } from "../errors.js";
import { pullRequestConfig, sandboxConfig, usageLimitConfig } from "../options.js";
import { outputMode } from "../ui/output-mode.js";
import { configFor, openConfiguredStore } from "../runtime.js";
import { discardUnstartedSession } from "../session/discard.js";
import { driveSession } from "../session/drive.js";
import { chooseModel } from "../session/model.js";
import { planSession } from "../session/plan.js";
import { startInterruptibly } from "../session/start.js";
import { printText } from "../output/print.js";
import { readStdin } from "../stdin.js";
import { invocation } from "../invocation.js";

export interface RunFlags {
  repo?: string;
  hat?: string;
  taskFile?: string;
  criteria?: string;
  maxIterations?: number;
  maxCost?: number;
  maxTokens?: number;
  maxRuntime?: number;
  maxWait?: number;
  usageLimit?: string;
  sandbox?: string;
  model?: string;
  provider?: string;
  inPlace?: boolean;
  allowDirty?: boolean;
  pr?: boolean;
  draft?: boolean;
  json?: boolean;
  plain?: boolean;
}

export async function runAction(words: string[], flags: RunFlags, command: Command): Promise<void> {
  process.exitCode = await runTask(words, flags, command);
}

/** Checks everything (config, model, task, repository, hat), then creates the session and runs it. */
async function runTask(words: string[], flags: RunFlags, command: Command): Promise<number> {
  const config = configFor(command, runConfigFlags(flags));
  const model = chooseModel(config.model, config);
  await model.ready();
  const task = await taskText(words, flags);
  const plan = await planSession({
    task,
    repoDir: flags.repo ?? process.cwd(),
    inPlace: Boolean(flags.inPlace),
    allowDirty: Boolean(flags.allowDirty),
    config,
    modelId: model.id,
  });
  const store = await openConfiguredStore(config);
  try {
    const session = await startInterruptibly(plan, store, (line) => printText(line, process.stderr));
    return await driveUnlessItCannotStart(store, session, () => driveSession({ session, store, config, model, output: outputMode(flags) }));
  } finally {
    await store.close();
    await closeSandbox();
  }
}

/** A session whose loop never began (still pending) is taken back when its drive fails. */
async function driveUnlessItCannotStart(store: Store, session: SessionRecord, drive: () => Promise<number>): Promise<number> {
  try {
    return await drive();
  } catch (error) {
    // A database that is gone keeps its session row: the error says how to resume.
    const current = await store.sessions.get(session.id).catch(() => null);
    if (current?.status === "pending") await discardUnstartedSession(store, session);
    throw error;
  }
}

/**
 * The task: words on the command line, a file (--task-file) or stdin (-); with --criteria FILE, that
 * file's acceptance criteria appended under "## Acceptance criteria" (docs/loop.md).
 */
export async function taskText(words: string[], flags: Pick<RunFlags, "taskFile" | "criteria">): Promise<string> {
  // Read first: a criteria file that cannot be read stops the command before stdin is consumed or anything is created.
  const criteria = flags.criteria === undefined ? null : criteriaText(flags.criteria);
  const task = await taskOnly(words, flags.taskFile);
  return criteria === null ? task : withCriteria(task, criteria);
}

function criteriaText(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw usageError(`cannot read the criteria file ${file}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
  }
  if (acceptanceCriteria(withCriteria("", text)).length === 0) throw usageError(`the criteria file ${file} holds no criteria`);
  return text;
}

async function taskOnly(words: string[], taskFile: string | undefined): Promise<string> {
  if (taskFile !== undefined) {
    if (words.length) throw usageError("give the task either as words or with --task-file, not both");
    try {
      return readFileSync(taskFile, "utf8");
    } catch (error) {
      throw usageError(`cannot read the task file ${taskFile}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
    }
  }
  if (words.length === 1 && words[0] === "-") return readStdin();
  if (words.length === 0)
    throw usageError(
      `no task: give it as words (${invocation()} run "fix the flaky test"), with --task-file FILE, or - to read it from stdin`,
    );
  return words.join(" ");
}

export function runConfigFlags(flags: RunFlags): Record<string, unknown> {
  return {
    hat: flags.hat,
    maxIterations: flags.maxIterations,
    maxCostUsd: flags.maxCost,
    maxTokens: flags.maxTokens,
    maxRuntime: flags.maxRuntime,
    maxWait: flags.maxWait,
    retry: usageLimitConfig(flags),
    model: flags.model,
    provider: flags.provider,
    pr: pullRequestConfig(flags),
    tools: sandboxConfig(flags),
  };
}
