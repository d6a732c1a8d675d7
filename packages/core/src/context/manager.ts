import {
  calibrateCharsPerToken,
  collectDecisions,
  cutToFit,
  estimatePromptOverhead,
  estimateTokens,
  gaugeLine,
  keyDecisionsOf,
  parseScratchpad,
  planCompaction,
  removeToolResponses,
  renderCompactedHistory,
  stepLatch,
  zoneFor,
  contextTokens,
  MARKERS,
  sendableMessages,
  type EstimateOptions,
  type KeptEntry,
  newestFailureLine,
  personWords,
  namedItems,
  type Message,
} from "@hatloop/context";
import type { HatloopConfig } from "../config.js";
import type { Compaction, ContextHook, ContextView, Measurement } from "../state/context-hook.js";
import type { GuardState } from "../state/guard.js";
import type { LiveEntry } from "../state/live-entry.js";
import type { ContextOverflow, ModelPort } from "../ports/model.js";
import type { Store, Usage } from "../store/port.js";
import { appendCompactedHistory, compactedHistoryOf } from "./compacted-history.js";
import { updateFacts } from "./facts.js";
import { buildRecalledBlock, recallCapTokens, recallQuery, seqsShownInFull } from "./recall-block.js";
import { messageText } from "./message-text.js";
import { summarizeDropped } from "./summarize.js";
import { addUsage, promptTokens } from "../state/loop-state.js";
import { CompactionPolicy, type SummaryPricing } from "./policy.js";
import { CacheTtlPolicy } from "./cache-ttl.js";

// Context management for one session. After each iteration it measures the next request (anchored
// on the API's reported usage) and feeds a latch, so one pressure episode gives one warn checkpoint
// and one compaction. What it remembers between calls (latch, cost policy, cache TTL, calibration)
// is the guard's state in the loop state: read from the view, handed back, checkpointed with it. The compaction, before the next model call, removes tool results middle-out
// in batches (cache-friendly: stubs are frozen, never undone) and, when that is not enough, prunes
// whole older turns, summarising them (LLM with mechanical fallback), keeping facts, and injecting
// one message with the compacted history, the user's steering, the decisions so far and recalled
// context. Every original stays stored.

/** Names indexed per compaction (about 1,000 tokens). */
const NAMED_ITEMS = 150;
/** Decisions shown in a compaction's packet (all of them stay in the handoff). */
const MAX_PACKET_DECISIONS = 20;

/** Share of the window at which a compaction is forced even within a pressure episode. */
const HARD_LIMIT = 0.97;

export interface ContextManagerOptions {
  config: HatloopConfig["context"];
  store: Store;
  sessionId: string;
  repoPath: string;
  /** For structured summaries and fact extraction; null: deterministic rules only. */
  summarizer: { model: ModelPort; summaryModel: string } | null;
  /** What the summary calls of a compaction cost relative to the main model, for the cost policy. */
  summaryPricing?: SummaryPricing;
}

export interface ContextManager extends ContextHook {
  /** Re-applies frozen stubs to a restored live context. */
  restub: (live: LiveEntry[], stubbed: ReadonlySet<string>) => LiveEntry[];
}

export function createContextManager(options: ContextManagerOptions): ContextManager {
  const { config } = options;
  const policy = new CompactionPolicy(config.policy, config.llmSummary ? (options.summaryPricing ?? null) : null);
  const ttl = new CacheTtlPolicy(config.cacheTtl === "auto" ? null : config.cacheTtl);
  const zones = { gaugePct: config.gaugePct, warnPct: config.warnPct, compactPct: config.compactPct };

  const measureTokens = (view: ContextView): number => {
    const estimate: EstimateOptions = { system: view.system, tools: view.tools, charsPerToken: view.guard.charsPerToken };
    const messages = view.live.map((e) => e.message);
    const anchor = view.anchor && {
      promptTokens: promptTokens(view.anchor.usage),
      messageCount: view.anchor.entries,
      overheadEstimate: estimatePromptOverhead(estimate),
    };
    return contextTokens(messages, anchor, estimate).tokens;
  };

  return {
    measure(view) {
      const guard = view.guard;
      const tokens = measureTokens(view);
      const step = stepLatch(guard.latch, tokens, { ...zones, contextWindow: view.contextWindow });
      const observed = policy.observe(guard.policy, tokens);
      // The zone is the upper bound; the cost policy usually asks well before it.
      const compactRequested = guard.compactRequested || step.signals.compact || policy.wants(observed, tokens, view.contextWindow);
      const zone = zoneFor(tokens, { ...zones, contextWindow: view.contextWindow });
      // The warn trigger stays spent for the rest of the pressure episode: its checkpoint exists.
      const checkpointSaved = !step.state.warnArmed && (zone === "warn" || zone === "compact");
      const measurement: Measurement = {
        tokens,
        percent: Math.floor((tokens * 100) / view.contextWindow),
        zone,
        warnCrossed: step.signals.warnCheckpoint,
        checkpointSaved,
      };
      return { measurement, guard: { ...guard, latch: step.state, lastTokens: tokens, policy: observed, compactRequested } };
    },

    gaugeLine(measurement, contextWindow) {
      return gaugeLine({ tokens: measurement.tokens, contextWindow, checkpointSaved: measurement.checkpointSaved }, zones);
    },

    async beforeCall(view, signal, overflow) {
      // The latch gives one compaction per pressure episode; past the hard limit the request would
      // not fit the window at all, so compaction happens whatever the latch says. So it does when
      // the API said the last request did not fit.
      const overLimit = view.guard.lastTokens >= view.contextWindow * HARD_LIMIT;
      if (!view.guard.compactRequested && !overLimit && !overflow) return { compaction: null, guard: view.guard };
      let guard: GuardState = { ...view.guard, compactRequested: false };
      const messages = view.live.map((e) => e.message);
      const shape = { system: view.system, tools: view.tools };
      if (overflow?.promptTokens) {
        const charsPerToken = calibrateCharsPerToken(
          { messages: sendableMessages(messages), measuredTokens: overflow.promptTokens },
          { ...shape, charsPerToken: guard.charsPerToken },
        );
        guard = { ...guard, charsPerToken };
      }
      const estimate = (m: readonly Message[]) => estimateTokens(m, { ...shape, charsPerToken: guard.charsPerToken });
      const compaction = await compact(options, view, {
        messages,
        estimate,
        overflow,
        signal,
        residual: policy.residual(view.contextWindow),
      });
      // 413 names no size: what is sent next must be half of what was refused, cut if need be.
      const hard = Math.floor(view.contextWindow * HARD_LIMIT);
      const limit = overflow && overflow.promptTokens === null ? Math.min(hard, Math.floor(estimate(messages) / 2)) : hard;
      const fitted = fitHardLimit(compaction, limit, estimate);
      // On a short history a summary can weigh more than what it replaces: keep the history then.
      if (fitted.tokensAfter >= fitted.tokensBefore) return { compaction: null, guard };
      guard = {
        ...guard,
        lastTokens: fitted.tokensAfter,
        policy: policy.compacted(guard.policy, fitted.tokensAfter),
        ttl: ttl.rewrite(guard.ttl),
      };
      return { compaction: fitted, guard };
    },

    cacheTtl(now, guard) {
      const chosen = ttl.choose(guard.ttl, now, guard.lastTokens);
      return { ttl: chosen.ttl, guard: { ...guard, ttl: chosen.state } };
    },

    restub(live, stubbed) {
      if (stubbed.size === 0) return live;
      return liveOf(removeToolResponses(live, 0, { frozen: [...stubbed] }).kept);
    },
  };
}

type Plan = ReturnType<typeof planCompaction<LiveEntry>>;

interface CompactInput {
  messages: Message[];
  estimate: (m: readonly Message[]) => number;
  overflow: ContextOverflow | undefined;
  signal: AbortSignal;
  /** What the cost policy keeps; null: the guard's target (targetPct of the compaction zone). */
  residual: number | null;
}

/** Middle-out removal when it is enough, else turn-aware pruning. */
async function compact(options: ContextManagerOptions, view: ContextView, input: CompactInput): Promise<Compaction> {
  const { config } = options;
  const { messages, estimate } = input;
  let compactAt = Math.floor((view.contextWindow * config.compactPct) / 100);
  // 413 says the body is over the size limit and gives no count: aim at half of what was sent.
  if (input.overflow && input.overflow.promptTokens === null)
    compactAt = Math.min(compactAt, Math.floor((estimate(messages) * 50) / config.targetPct));
  const packetTokens = recallCapTokens(config.recallCapTokens, view.contextWindow) + 2_500;
  const guardTarget = Math.floor((compactAt * config.targetPct) / 100);
  const plan = planCompaction(view.live, {
    compactAt,
    targetPct: config.targetPct,
    targetTokens: input.residual === null ? guardTarget : Math.min(guardTarget, input.residual),
    frozen: [...view.stubbed],
    keepTurns: config.keepTurns,
    maxStubs: config.maxStubs,
    reserveTokens: packetTokens,
    estimate,
  });
  const stubbed = new Set(plan.frozen);
  if (plan.strategy === "removal") {
    const live = liveOf(plan.kept);
    return {
      level: plan.level,
      tokensBefore: plan.tokensBefore,
      live,
      stubbed,
      strategy: "removal",
      removed: plan.removed.length,
      tokensAfter: plan.tokensAfter,
      summary: null,
    };
  }
  return prune(options, view, plan, stubbed, estimate, input.signal);
}

/**
 * The live entries of a compacted history. A message compaction wrote, or one it cut, no longer
 * equals a stored message: it becomes a stored message of its own, so a checkpoint can still
 * reference it.
 */
function liveOf(kept: readonly KeptEntry<LiveEntry>[]): LiveEntry[] {
  return kept.map((k): LiveEntry =>
    k.rewritten ? { seq: null, kind: "injected", message: k.message } : { ...k.entry, message: k.message },
  );
}

/**
 * Past compaction, a request still over the hard limit holds one item too big for any context: its
 * largest tool results are cut to fit (the originals stay stored). A cut message becomes a stored
 * message of its own, so a checkpoint can reference it.
 */
function fitHardLimit(compaction: Compaction, limit: number, estimate: (m: readonly Message[]) => number): Compaction {
  if (compaction.tokensAfter <= limit) return compaction;
  const cut = cutToFit(compaction.live, limit, estimate);
  if (!cut.kept.some((k) => k.rewritten)) return compaction;
  return { ...compaction, live: liveOf(cut.kept), strategy: `${compaction.strategy}+cut`, tokensAfter: cut.tokensAfter };
}

function sumCosts(calls: Array<{ usage: Usage | null; costUsd: number }>): Compaction["cost"] {
  const made = calls.filter((c): c is { usage: Usage; costUsd: number } => c.usage !== null);
  if (made.length === 0) return undefined;
  const usage = made.map((c) => c.usage).reduce(addUsage);
  return { usage, costUsd: made.reduce((n, c) => n + c.costUsd, 0) };
}

/** The live entry that holds the task: the oldest stored user message that starts with it. */
function taskEntry(view: ContextView): LiveEntry | undefined {
  const head = view.task.trim().slice(0, 200);
  let found: LiveEntry | undefined;
  for (const e of view.live)
    if (e.kind === "conversation" && e.seq !== null && e.message.role === "user" && messageText(e.message).trimStart().startsWith(head))
      if (!found || e.seq < found.seq!) found = e;
  return found;
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
  // The task message is pinned: whatever else goes, the goal stays verbatim. It is the first stored
  // message, wherever an earlier compaction put it (behind that compaction's packet, say).
  const task = taskEntry(view);
  const pinned = task !== undefined && plan.dropped.includes(task) ? task : null;
  const droppedEntries = plan.dropped.filter((e) => e !== pinned);
  const droppedMessages = droppedEntries.map((e) => e.message);

  const summarizer = config.llmSummary ? options.summarizer : null;
  const summary = await summarizeDropped(droppedMessages, {
    model: summarizer?.model ?? null,
    summaryModel: summarizer?.summaryModel ?? "",
    signal,
  });
  const facts = await updateFacts(
    store,
    { repoPath: options.repoPath, sessionId: options.sessionId, iteration: view.iteration },
    droppedMessages,
    summarizer ? { ...summarizer, signal } : null,
  );
  const droppedSeqs = droppedEntries.flatMap((e) => (e.seq === null ? [] : [e.seq]));
  const kept = liveOf(plan.kept);
  // What the agent named in the dropped turns, as an index: one recall brings back the turn behind a name.
  const named = namedItems(droppedMessages, { max: NAMED_ITEMS, shown: kept.map((e) => messageText(e.message)).join("\n") });
  const index = named.length ? `\n\nNamed in these turns, newest first (recall finds the turn behind each): ${named.join(", ")}` : "";
  const entry = renderCompactedHistory(`${summary.text}${index}`, {
    source: summary.source,
    messageCount: droppedMessages.length,
    seqs: droppedSeqs.length ? { from: Math.min(...droppedSeqs), to: Math.max(...droppedSeqs) } : undefined,
  });

  const packet: string[] = [compactedHistoryOf(appendCompactedHistory(view.scratchpad, entry))];
  // What the user said after the task is pinned like the task: pruning may drop the turns it came in.
  if (view.instructions.length)
    packet.push(
      `${MARKERS.continuation} What the user said after the task, verbatim (a long one shortened, the rest stored):\n${personWords(
        view.instructions,
      )
        .map((t) => `- ${t}`)
        .join("\n")}`,
    );
  // So are the decisions: a summary covers only the turns it replaced, and the oldest summaries go
  // first, but a resumed train of thought needs every choice still in force (superseded ones are not).
  const decisions = collectDecisions(view.decisions, droppedMessages, parseScratchpad(view.scratchpad));
  // Those later work still depends on (ranked on what is kept live), not merely the newest.
  const inForce = keyDecisionsOf(
    decisions,
    kept.map((e) => e.message),
    MAX_PACKET_DECISIONS,
  );
  if (inForce.length)
    packet.push(
      `${MARKERS.continuation} Decisions still in force, those later work depends on most first (a later one replaces an earlier one on the same setting):\n${inForce.map((d) => `- ${d}`).join("\n")}`,
    );
  // And the newest failure: the turn that showed it may be gone, and it is what the work is about.
  const lastFailure = newestFailureLine(droppedMessages) ?? view.lastFailure;
  if (lastFailure !== null && newestFailureLine(kept.map((e) => e.message)) === null) {
    packet.push(`${MARKERS.continuation} The last failure seen (open until a later run passes):\n${lastFailure}`);
  }
  const query = recallQuery(view.task, view.instructions, view.openItems);
  if (query) {
    const facts = await store.memories.listActive(options.repoPath, { kind: "fact", limit: 40 });
    const keptSeqs = seqsShownInFull([view.live[0]!, ...kept], stubbed);
    const recalled = await buildRecalledBlock(store, options.sessionId, {
      query,
      excludeSeqs: keptSeqs,
      facts,
      capTokens: recallCapTokens(config.recallCapTokens, view.contextWindow),
    });
    if (recalled) packet.push(recalled.text);
  }
  const summaryEntry: LiveEntry = {
    seq: null,
    kind: "injected",
    message: { role: "user", content: packet.map((text) => ({ type: "text" as const, text })) },
  };
  const live = [...(pinned ? [pinned] : []), summaryEntry, ...kept];
  return {
    live,
    stubbed,
    strategy: summary.source === "llm" ? "pruning+llm-summary" : "pruning+mechanical-summary",
    level: plan.level,
    removed: droppedMessages.length,
    tokensBefore: plan.tokensBefore,
    tokensAfter: estimate(live.map((e) => e.message)),
    summary: entry,
    ...(summary.fallbackReason ? { summaryFallback: summary.fallbackReason } : {}),
    cost: sumCosts([summary, facts]),
    decisions,
    lastFailure,
  };
}
