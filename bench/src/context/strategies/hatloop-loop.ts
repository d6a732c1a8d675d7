import {
  buildFactExtractionPrompt,
  buildHandoff,
  buildSummaryPrompt,
  carryOf,
  changedPaths,
  estimateTokens,
  MARKERS,
  toolCalls,
  type ContentBlock,
  type Handoff,
  type HandoffCarry,
  type Message,
} from "@hatloop/context";
import {
  appendCompactedHistory,
  createContextManager,
  defaultConfig,
  type CheckpointReason,
  type HatloopConfig,
  type ContextManager,
  type ContextView,
  type LiveEntry,
  type Store,
} from "@hatloop/core";
import { AgentState } from "./agent-state.js";
import { benchStore } from "./bench-store.js";
import type { StrategyContext, SummaryCall } from "./types.js";
import { SUMMARY_PRICE_RATIOS } from "../summary-calls.js";

/** What the product's summary and fact-extraction calls answer with, about (their output limits are 4k and 2k). */
const SUMMARY_OUTPUT_TOKENS = 1_500;
const FACTS_OUTPUT_TOKENS = 400;

// The part of hatloop's loop that manages context, replayed message by message exactly as
// run-loop/iteration/turn-end/compaction do it: the task is stored and a start checkpoint written;
// after each response the anchor is the API's usage (here: the harness's count of the request);
// each closing user message gets hatloop's notes, is measured and, above the gauge threshold,
// carries the gauge line; checkpoints (interval, warn, compaction) build the handoff, which carries
// the running decisions and open items; before each call the manager may compact. The summarizer is
// null, so summaries are the deterministic mechanical fallback.

const SESSION_ID = "bench-0000-session";
const REPO = "/bench/repo";
const ROUTINE: CheckpointReason[] = ["interval", "warn-threshold"];
const GENERATED_AT = "2026-01-01T00:00:00.000Z";

export class HatloopLoop {
  readonly store: Store = benchStore();
  readonly agent = new AgentState();
  readonly config: HatloopConfig;
  private readonly manager: ContextManager;
  live: LiveEntry[] = [];
  stubbed = new Set<string>();
  private anchor: ContextView["anchor"] = null;
  private nextSeq = 1;
  private iteration = 0;
  private task = "";
  private notes: string[] = [];
  private contextTokens = 0;
  private lastCheckpointTokens = new Map<CheckpointReason, number>();
  private carry: HandoffCarry = { decisions: [], openItems: [], lastFailure: null };
  /** Steering the user sent while the loop ran, as turn-end.ts records it. */
  private instructions: string[] = [];
  /** What git would report: every path the session's write/edit calls changed. */
  private readonly modified = new Set<string>();
  private lastAssistant: Message | null = null;
  readonly counts = { compactions: 0, removals: 0, prunings: 0, checkpoints: 0, gaugeLines: 0 };
  readonly summaries: SummaryCall[] = [];
  /** Each compaction, for looking into a run (not reported). */
  readonly compactionLog: Array<{ iteration: number; strategy: string; level: number; before: number; after: number; stubs: number }> = [];

  constructor(
    private readonly ctx: StrategyContext,
    context: HatloopConfig["context"] = defaultConfig().context,
  ) {
    this.config = { ...defaultConfig(), context };
    // As the product prices them (Haiku for Sonnet): two calls per pruning, summary and facts.
    const summaryPricing = {
      inputRatio: SUMMARY_PRICE_RATIOS.summary.input,
      maxInputTokens: 21_000,
      outputTokens: (SUMMARY_OUTPUT_TOKENS + FACTS_OUTPUT_TOKENS) * SUMMARY_PRICE_RATIOS.summary.output,
    };
    this.manager = createContextManager({
      config: this.config.context,
      store: this.store,
      sessionId: SESSION_ID,
      repoPath: REPO,
      summarizer: null,
      summaryPricing,
    });
  }

  /** Messages the session appended since the last call, handled as the loop handles them. */
  async take(appended: readonly Message[]): Promise<void> {
    for (const message of appended) {
      if (message.role === "assistant") await this.response(message);
      else if (this.lastAssistant === null) await this.taskMessage(message);
      else await this.closeTurn(message);
    }
  }

  /** The next request: compaction when the latch fired, then the live context as the API gets it. */
  async beforeCall(): Promise<Message[]> {
    this.iteration++;
    const before = this.live;
    const compaction = await this.manager.beforeCall(this.view(), new AbortController().signal);
    if (compaction) {
      if (compaction.summary !== null && this.config.context.llmSummary) this.priceSummaries(before, compaction.live, compaction.summary);
      this.compactionLog.push({
        iteration: this.iteration,
        strategy: compaction.strategy,
        level: compaction.level,
        before: compaction.tokensBefore,
        after: compaction.tokensAfter,
        stubs: compaction.stubbed.size,
      });
      await this.persist(compaction.live);
      this.live = compaction.live;
      this.stubbed = compaction.stubbed;
      this.contextTokens = compaction.tokensAfter;
      this.anchor = null;
      this.counts.compactions++;
      if (compaction.decisions) this.carry = { ...this.carry, decisions: compaction.decisions };
      if (compaction.lastFailure !== undefined) this.carry = { ...this.carry, lastFailure: compaction.lastFailure };
      if (compaction.strategy === "removal") this.counts.removals++;
      else this.counts.prunings++;
      if (compaction.summary) this.agent.scratchpad = appendCompactedHistory(this.agent.scratchpad, compaction.summary);
      this.notes.push(
        `Context compacted (${compaction.strategy}): about ${compaction.tokensBefore} -> ${compaction.tokensAfter} tokens. Removed tool results are stubs naming their archive id; older turns are summarised under Compacted History. Everything is stored: the recall tool fetches any of it.`,
      );
      await this.checkpoint("compaction");
    }
    return this.live.map((e) => e.message);
  }

  /** The API's reported prompt size for the request just sent: the next measurement's anchor. */
  usage(promptTokens: number, entries: number): void {
    this.anchor = { usage: { inputTokens: promptTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, entries };
  }

  /** The handoff a checkpoint taken now would carry (what resume renders its packet from). */
  async handoffNow(): Promise<Handoff> {
    const learnings = (await this.store.memories.bySession(SESSION_ID))
      .filter((m) => m.status === "active")
      .map((m) => `[${m.type}] ${m.content}`);
    const handoff = buildHandoff({
      generatedAt: GENERATED_AT,
      task: { title: this.task },
      instructions: this.instructions,
      hat: "creator",
      checklist: this.agent.checklist,
      scratchpad: this.agent.scratchpad,
      git: { branch: "hatloop/bench", headCommit: "0".repeat(40), modifiedFiles: [...this.modified], createdFiles: [] },
      messages: this.live.map((e) => e.message),
      ...this.carry,
      learnings,
      usage: null,
      failure: null,
    });
    this.carry = carryOf(handoff);
    return handoff;
  }

  /**
   * The product summarises what pruning drops with the summary model, and extracts facts from it in a
   * second call (core/context/summarize.ts, facts.ts). Here the text is the mechanical fallback, and
   * the calls are priced as the product would make them.
   */
  private priceSummaries(before: readonly LiveEntry[], after: readonly LiveEntry[], summary: string): void {
    const kept = new Set(after.map((e) => e.seq));
    const dropped = before.filter((e) => !kept.has(e.seq)).map((e) => e.message);
    // The product's own prompts, which quote the dropped turns within their bounds.
    const tokens = (text: string) => Math.ceil(text.length / 4);
    this.summaries.push({
      model: "summary",
      inputTokens: tokens(buildSummaryPrompt(dropped)),
      cachedTokens: 0,
      outputTokens: Math.min(SUMMARY_OUTPUT_TOKENS, estimateTokens([{ role: "assistant", content: summary }])),
    });
    this.summaries.push({
      model: "summary",
      inputTokens: tokens(buildFactExtractionPrompt(dropped)),
      cachedTokens: 0,
      outputTokens: FACTS_OUTPUT_TOKENS,
    });
  }

  storedCount(): number {
    return this.nextSeq - 1;
  }

  private async taskMessage(message: Message): Promise<void> {
    this.task ||=
      typeof message.content === "string"
        ? message.content
        : message.content
            .map((b) => (b.type === "text" ? b.text : ""))
            .join("\n")
            .trim();
    await this.append(message);
    if (this.live.length === 1) await this.checkpoint("start");
  }

  private async response(message: Message): Promise<void> {
    await this.append(message);
    this.lastAssistant = message;
    this.agent.observe(message);
  }

  private async closeTurn(message: Message): Promise<void> {
    const blocks: ContentBlock[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
    for (const block of blocks)
      if (block.type === "text" && block.text.startsWith(MARKERS.steer))
        this.instructions.push(block.text.slice(MARKERS.steer.length).trim());
    const notes = this.notes.splice(0).map((n) => `${MARKERS.continuation} ${n}`);
    if (notes.length) blocks.push({ type: "text", text: notes.join("\n\n") });
    const closing: Message = { role: "user", content: blocks };
    const measurement = this.manager.measure(this.view([...this.live, { seq: null, message: closing, kind: "conversation" }]));
    this.contextTokens = measurement.tokens;
    const gauge = this.manager.gaugeLine(measurement, this.ctx.window);
    if (gauge) {
      blocks.push({ type: "text", text: gauge });
      this.counts.gaugeLines++;
    }
    await this.append(gauge || notes.length ? closing : message);
    for (const call of toolCalls(this.lastAssistant ? [this.lastAssistant, message] : [message]))
      for (const path of changedPaths(call)) this.modified.add(path);
    if (measurement.warnCrossed) await this.checkpoint("warn-threshold");
    if (this.iteration % this.config.checkpoint.interval === 0) await this.checkpoint("interval");
  }

  /** Checkpointer.save's policy: routine checkpoints whose context moved < 5% are skipped. */
  private async checkpoint(reason: CheckpointReason): Promise<void> {
    const previous = this.lastCheckpointTokens.get(reason);
    if (ROUTINE.includes(reason) && previous !== undefined && Math.abs(this.contextTokens - previous) < 0.05 * Math.max(previous, 1))
      return;
    await this.handoffNow();
    this.lastCheckpointTokens.set(reason, this.contextTokens);
    this.counts.checkpoints++;
  }

  private view(live: readonly LiveEntry[] = this.live): ContextView {
    return {
      sessionId: SESSION_ID,
      iteration: this.iteration,
      hat: "creator",
      model: "bench",
      contextWindow: this.ctx.window,
      live,
      system: [this.ctx.system],
      tools: [],
      anchor: this.anchor,
      stubbed: this.stubbed,
      scratchpad: this.agent.scratchpad,
      task: this.task,
      instructions: this.instructions,
      openItems: this.agent.openItems(),
      decisions: this.carry.decisions,
      lastFailure: this.carry.lastFailure,
    };
  }

  private async append(message: Message): Promise<void> {
    const entry: LiveEntry = { seq: null, message, kind: "conversation" };
    await this.persist([entry]);
    this.live.push(entry);
  }

  /** live.ts storeEntries: unstored entries get the next seqs and are written (append-only). */
  private async persist(entries: LiveEntry[]): Promise<void> {
    const fresh = entries.filter((e) => e.seq === null);
    if (fresh.length === 0) return;
    for (const e of fresh) e.seq = this.nextSeq++;
    await this.store.messages.append(
      SESSION_ID,
      fresh.map((e) => ({ seq: e.seq!, iteration: this.iteration, hat: "creator", kind: e.kind, message: e.message, tokenEstimate: 0 })),
    );
  }
}
