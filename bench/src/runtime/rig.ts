import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import {
  createContextManager,
  createEventPersister,
  defaultConfig,
  LoopControl,
  runLoop,
  shortId,
  type EventPersister,
  type GitPort,
  type LoopEvent,
  type LoopOutcome,
  type Store,
} from "@hatloop/core";
import { loadHats, loadPromptComponents } from "./prompt-files.js";
import { noopTools, TimeSink, zeroModel } from "./zero-model.js";

// One session driven by the real runLoop, as the CLI drives it, over a real store: the real hats and
// prompts, the context manager (deterministic summaries), the event persister, a fake git whose
// commit marks the start of a checkpoint write, a zero-latency model and no-op tools.

const promptsDir = fileURLToPath(new URL("../../../prompts/", import.meta.url));

export interface RigOptions {
  /** The session's working window. */
  window: number;
  /** The model grows the context to about this many tokens with big results first. */
  fillTo: number;
  /** Model latency per call in ms (default 0). */
  modelDelayMs?: number;
  /** Write events to the store (as the CLI does). Default true. */
  persistEvents?: boolean;
}

export interface Rig {
  sessionId: string;
  store: Store;
  /** Model and tool time, taken by the caller per iteration. */
  work: TimeSink;
  /** Listeners for every loop event, called synchronously as the loop emits it. */
  listeners: Array<(event: LoopEvent) => void>;
  /** Called when a checkpoint write starts (the worktree commit comes first in Checkpointer.save). */
  onCheckpointStart: (() => void) | null;
  /** Called at each model call, saying whether the model is still filling the context. */
  onModelCall: ((filling: boolean) => void) | null;
  /** performance.now() just before the latest runLoop call. */
  runStartedAt: number;
  /** Asks the running loop to stop before its next iteration. */
  stop(): void;
  /** Runs (or resumes) the loop until it has done `totalIterations` iterations in all. */
  runUntil(totalIterations: number): Promise<LoopOutcome>;
}

export async function createRig(store: Store, options: RigOptions): Promise<Rig> {
  const sessionId = randomUUID();
  const work = new TimeSink();
  const config = defaultConfig();
  await store.sessions.create({
    id: sessionId,
    task: "Benchmark the loop: read files until the budget runs out.",
    title: "runtime bench",
    repoPath: "/bench/repo",
    worktreePath: "/bench/repo",
    branch: `hatloop/${shortId(sessionId)}`,
    baseCommit: "b".repeat(40),
    inPlace: false,
    hat: "planner",
    model: "zero-latency",
    budgets: { maxIterations: 1, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null },
    contextWindow: options.window,
  });
  const hats = loadHats([`${promptsDir}hats`]);
  const prompts = loadPromptComponents(`${promptsDir}components`);
  let control: LoopControl | null = null;
  const rig: Rig = {
    sessionId,
    store,
    work,
    listeners: [],
    onCheckpointStart: null,
    onModelCall: null,
    runStartedAt: 0,
    stop: () => control?.requestStop(),
    async runUntil(totalIterations) {
      const session = (await store.sessions.get(sessionId))!;
      await store.sessions.update(sessionId, { budgets: { ...session.budgets, maxIterations: totalIterations } });
      const context = createContextManager({ config: config.context, store, sessionId, repoPath: "/bench/repo", summarizer: null });
      const persister: EventPersister | null = options.persistEvents === false ? null : createEventPersister(store, sessionId);
      const git: GitPort = {
        commitAll: async () => {
          rig.onCheckpointStart?.();
          return "c".repeat(40);
        },
        headCommit: async () => "c".repeat(40),
        facts: async () => ({
          branch: "hatloop/bench",
          headCommit: "c".repeat(40),
          modifiedFiles: [],
          createdFiles: [],
          deletedFiles: [],
          diffstat: { filesChanged: 0, insertions: 0, deletions: 0 },
          commits: [],
        }),
      };
      control = new LoopControl();
      rig.runStartedAt = performance.now();
      try {
        return await runLoop(
          { sessionId, config },
          {
            store,
            model: zeroModel(
              { fillTo: options.fillTo, delayMs: options.modelDelayMs, onCall: (filling) => rig.onModelCall?.(filling) },
              work,
            ),
            tools: noopTools(work),
            hats,
            prompts,
            gates: { run: async () => ({ passed: true, checks: [] }) },
            git,
            control,
            sinks: [(e) => rig.listeners.forEach((l) => l(e)), ...(persister ? [persister.sink] : [])],
            context,
            restub: context.restub,
          },
        );
      } finally {
        await persister?.close();
      }
    },
  };
  return rig;
}
