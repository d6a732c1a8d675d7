import {
  collectDecisions,
  estimatePromptOverhead,
  estimateTokens,
  gaugeLine,
  INITIAL_LATCH_STATE,
  keyDecisionsOf,
  parseScratchpad,
  planCompaction,
  removeToolResponses,
  renderCompactedHistory,
  stepLatch,
  zoneFor,
  contextTokens,
  MARKERS,
  type EstimateOptions,
  type LatchState,
  type Message,
} from "@hatloop/context";
import type { HatloopConfig } from "../config.js";
import type { Compaction, ContextHook, ContextView, LiveEntry, Measurement } from "../loop/context-hook.js";
import type { ModelPort } from "../ports/model.js";
import type { Store, Usage } from "../store/port.js";
import { appendCompactedHistory, compactedHistoryOf } from "./compacted-history.js";
import { updateFacts } from "./facts.js";
import { buildRecalledBlock, recallCapTokens, recallQuery, seqsShownInFull } from "./recall-block.js";
import { summarizeDropped } from "./summarize.js";
import { addUsage } from "../loop/state.js";

// Context management for one session. After each iteration it measures the next request (anchored
// on the API's reported usage) and feeds a latch, so one pressure episode gives one warn checkpoint
// and one compaction. The compaction, before the next model call, removes tool results middle-out
// in batches (cache-friendly: stubs are frozen, never undone) and, when that is not enough, prunes
// whole older turns, summarising them (LLM with mechanical fallback), keeping facts, and injecting
// one message with the compacted history, the user's steering, the decisions so far and recalled
// context. Every original stays stored.

/** Share of the window at which a compaction is forced even within a pressure episode. */
const HARD_LIMIT = 0.97;

export interface ContextManagerOptions {
  config: HatloopConfig["context"];
  store: Store;
  sessionId: string;
  repoPath: string;
  /** For structured summaries and fact extraction; null: deterministic rules only. */
  summarizer: { model: ModelPort; summaryModel: string } | null;
}

export interface ContextManager extends ContextHook {
  /** Re-applies frozen stubs to a restored live context. */
  restub(messages: Message[], seqs: Array<number | null>, stubbed: ReadonlySet<string>): Message[];
}

export function createContextManager(options: ContextManagerOptions): ContextManager {
  const { config } = options;
  let latch: LatchState = INITIAL_LATCH_STATE;
  let compactRequested = false;
  let lastTokens = 0;
  const zones = { gaugePct: config.gaugePct, warnPct: config.warnPct, compactPct: config.compactPct };

  const measureTokens = (view: ContextView): number => {
    const estimate: EstimateOptions = { system: view.system, tools: view.tools };
    const messages = view.live.map((e) => e.message);
    const anchor = view.anchor && {
      promptTokens: view.anchor.usage.inputTokens + view.anchor.usage.cacheReadTokens + view.anchor.usage.cacheWriteTokens,
      messageCount: view.anchor.entries,
      overheadEstimate: estimatePromptOverhead(estimate),
    };
    return contextTokens(messages, anchor, estimate).tokens;
  };

  return {
    measure(view): Measurement {
      const tokens = measureTokens(view);
      lastTokens = tokens;
      const step = stepLatch(latch, tokens, { ...zones, contextWindow: view.contextWindow });
      latch = step.state;
      if (step.signals.compact) compactRequested = true;
      return {
        tokens,
        percent: Math.floor((tokens * 100) / view.contextWindow),
        zone: zoneFor(tokens, { ...zones, contextWindow: view.contextWindow }),
        warnCrossed: step.signals.warnCheckpoint,
      };
    },

    gaugeLine(measurement, contextWindow, checkpointSaved) {
      return gaugeLine({ tokens: measurement.tokens, contextWindow, checkpointSaved }, zones);
    },

    async beforeCall(view, signal): Promise<Compaction | null> {
      // The latch gives one compaction per pressure episode; past the hard limit the request would
      // not fit the window at all, so compaction happens whatever the latch says.
      const overLimit = lastTokens >= view.contextWindow * HARD_LIMIT;
      if (!compactRequested && !overLimit) return null;
      compactRequested = false;
      const estimate = (m: readonly Message[]) => estimateTokens(m, { system: view.system, tools: view.tools });
      const messages = view.live.map((e) => e.message);
      const seqs = view.live.map((e) => e.seq);
      const packetTokens = recallCapTokens(config.recallCapTokens, view.contextWindow) + 2_500;
      const plan = planCompaction(messages, {
        compactAt: Math.floor((view.contextWindow * config.compactPct) / 100),
        targetPct: config.targetPct,
        seqs: seqs.map((s) => s ?? undefined),
        frozen: [...view.stubbed],
        keepTurns: config.keepTurns,
        maxStubs: config.maxStubs,
        reserveTokens: packetTokens,
        estimate,
      });
      const stubbed = new Set(plan.frozen);
      const base = { level: plan.level, tokensBefore: plan.tokensBefore };
      if (plan.strategy === "removal") {
        const live = view.live.map((entry, i): LiveEntry => ({ ...entry, message: plan.messages[i]! }));
        return { ...base, live, stubbed, strategy: "removal", removed: plan.removed.length, tokensAfter: plan.tokensAfter, summary: null };
      }
      return prune(options, view, plan, stubbed, estimate, signal);
    },

    restub(messages, seqs, stubbed) {
      if (stubbed.size === 0) return messages;
      return removeToolResponses(messages, 0, { seqs: seqs.map((s) => s ?? undefined), frozen: [...stubbed] }).messages;
    },
  };
}

type Plan = ReturnType<typeof planCompaction>;

function sumCosts(calls: Array<{ usage: Usage | null; costUsd: number }>): Compaction["cost"] {
  const made = calls.filter((c): c is { usage: Usage; costUsd: number } => c.usage !== null);
  if (made.length === 0) return undefined;
  const usage = made.map((c) => c.usage).reduce(addUsage);
  return { usage, costUsd: made.reduce((n, c) => n + c.costUsd, 0) };
}

/** Turn-aware pruning: keep the task and the recent turns; summarise, distil and recall the rest. */
async function prune(
  options: ContextManagerOptions,
  view: ContextView,
  plan: Plan,
  stubbed: Set<string>,
  estimate: (m: readonly Message[]) => number,
  signal: AbortSignal,
): Promise<Compaction> {
  const { store, config } = options;
  const dropped = new Set(plan.dropped);
  const removedIdx = new Set([...plan.dropped, ...plan.artifacts]);
  const keptIdx = view.live.map((_, i) => i).filter((i) => !removedIdx.has(i));
  if (keptIdx.length !== plan.messages.length) throw new Error(`pruning kept ${plan.messages.length} messages for ${keptIdx.length} entries`);
  const trimmed = new Set(plan.trimmed);
  // The task message is pinned: whatever else goes, the goal stays verbatim.
  const pinTask = dropped.has(0);
  const droppedEntries = plan.dropped.filter((i) => !(pinTask && i === 0)).map((i) => view.live[i]!);
  const droppedMessages = droppedEntries.map((e) => e.message);

  const summarizer = config.llmSummary ? options.summarizer : null;
  const summary = await summarizeDropped(droppedMessages, { model: summarizer?.model ?? null, summaryModel: summarizer?.summaryModel ?? "", signal });
  const facts = await updateFacts(store, { repoPath: options.repoPath, sessionId: options.sessionId, iteration: view.iteration }, droppedMessages, summarizer ? { ...summarizer, signal } : null);
  const droppedSeqs = droppedEntries.flatMap((e) => (e.seq === null ? [] : [e.seq]));
  const entry = renderCompactedHistory(summary.text, {
    source: summary.source,
    messageCount: droppedMessages.length,
    seqs: droppedSeqs.length ? { from: Math.min(...droppedSeqs), to: Math.max(...droppedSeqs) } : undefined,
  });

  const kept: LiveEntry[] = keptIdx.map((index, k) =>
    // A kept message whose leading results were cut no longer equals its stored form: it becomes a
    // stored message of its own, so a checkpoint can still reference it.
    trimmed.has(index) ? { seq: null, kind: "injected", message: plan.messages[k]! } : { ...view.live[index]!, message: plan.messages[k]! },
  );
  const packet: string[] = [compactedHistoryOf(appendCompactedHistory(view.scratchpad, entry))];
  // What the user said after the task is pinned like the task: pruning may drop the turns it came in.
  if (view.instructions.length) packet.push(`${MARKERS.continuation} What the user said after the task, verbatim:\n${view.instructions.map((t) => `- ${t}`).join("\n")}`);
  // So are the decisions: a summary covers only the turns it replaced, and the oldest summaries go
  // first, but a resumed train of thought needs every choice still in force (superseded ones are not).
  const decisions = collectDecisions(view.decisions, droppedMessages, parseScratchpad(view.scratchpad));
  const inForce = keyDecisionsOf(decisions);
  if (inForce.length) packet.push(`${MARKERS.continuation} Decisions so far, oldest first (a later one replaces an earlier one on the same setting):\n${inForce.map((d) => `- ${d}`).join("\n")}`);
  const query = recallQuery(view.task, view.instructions, view.openItems);
  if (query) {
    const facts = await store.memories.listActive(options.repoPath, { kind: "fact", limit: 40 });
    const keptSeqs = seqsShownInFull([view.live[0]!, ...kept], stubbed);
    const recalled = await buildRecalledBlock(store, options.sessionId, { query, excludeSeqs: keptSeqs, facts, capTokens: recallCapTokens(config.recallCapTokens, view.contextWindow) });
    if (recalled) packet.push(recalled.text);
  }
  const summaryEntry: LiveEntry = { seq: null, kind: "injected", message: { role: "user", content: packet.map((text) => ({ type: "text" as const, text })) } };
  const live = [...(pinTask ? [view.live[0]!] : []), summaryEntry, ...kept];
  return {
    live,
    stubbed,
    strategy: summary.source === "llm" ? "pruning+llm-summary" : "pruning+mechanical-summary",
    level: plan.level,
    removed: droppedMessages.length,
    tokensBefore: plan.tokensBefore,
    tokensAfter: estimate(live.map((e) => e.message)),
    summary: entry,
    cost: sumCosts([summary, facts]),
    decisions,
  };
}
