import { fileURLToPath } from "node:url";
import {
  buildFactExtractionPrompt,
  buildSummaryPrompt,
  estimatePacketTokens,
  estimateTokens,
  realUserText,
  renderHandoffMarkdown,
  renderResumePacket,
  validateHandoff,
  type CacheTtl,
  type Message,
} from "@hatloop/context";
import {
  createContextManager,
  defaultConfig,
  LoopControl,
  messageText,
  runLoop,
  type ContextManager,
  type GitPort,
  type HatloopConfig,
  type LoopEvent,
  type LoopOutcome,
} from "@hatloop/core";
import { textTokens } from "../../../util/message-text.js";
import { SUMMARY_PRICE_RATIOS } from "../../summary-calls.js";
import { loadHats, loadPromptComponents } from "../../../runtime/prompt-files.js";
import { benchStore } from "../bench-store.js";
import type { Handoff, StrategyContext, StrategyRun, SummaryCall } from "../types.js";
import { ReplayModel } from "./replay-model.js";
import { ReplayTools } from "./replay-tools.js";

// The product's own loop (runLoop) replaying a transcript: the harness hands each recorded
// assistant message to the loop as the model's answer and each recorded tool result as the tool's;
// what the person wrote later in the session reaches the loop as steering, as `hatloop` delivers
// what a user types; what the other agent injected (its reminders, environment) does not reach it:
// hatloop sends its own notes instead. The requests are the ones the loop sends. The summarizer
// is null, so summaries are the mechanical fallback; the summary model's calls are priced as the
// product would make them.

const promptsDir = fileURLToPath(new URL("../../../../../prompts/", import.meta.url));
const SESSION_ID = "00000000-0000-4000-8000-0000000be4c4";
const REPO = "/bench/repo";
/** The clock when the transcript has no times: one model call every 30 s from a fixed start. */
const START = Date.parse("2026-01-01T00:00:00Z");
const STEP_MS = 30_000;
/** What the product's summary and fact-extraction calls answer with, about (their output limits are 4k and 2k). */
const SUMMARY_OUTPUT_TOKENS = 1_500;
const FACTS_OUTPUT_TOKENS = 400;
/** What the recall tool returns by default (packages/tools). */
const RECALL_LIMIT = 5;

export class ProductRun implements StrategyRun {
  private readonly store = benchStore();
  private readonly model = new ReplayModel();
  private readonly tools: ReplayTools;
  private readonly control = new LoopControl();
  private readonly config: HatloopConfig;
  private loop: Promise<LoopOutcome> | null = null;
  private now = START;
  private ttl: CacheTtl = "5m";
  private lastRequest: Message[] = [];
  private shown: Set<string> | null = null;
  readonly counts = { compactions: 0, removals: 0, prunings: 0, checkpoints: 0, gaugeLines: 0, steering: 0, resumes: 0 };
  readonly summaries: SummaryCall[] = [];

  constructor(
    private readonly ctx: StrategyContext,
    context: HatloopConfig["context"],
  ) {
    this.config = { ...defaultConfig(), context };
    this.tools = new ReplayTools(ctx.toolNames);
  }

  async next(appended: readonly Message[], at?: number): Promise<Message[]> {
    this.tick(at);
    if (this.loop) this.answer(appended);
    else await this.start(appended);
    const request = await this.request();
    this.ttl = request.cacheTtl ?? "5m";
    this.lastRequest = request.messages;
    this.shown = null;
    return request.messages;
  }

  cacheTtl(): CacheTtl {
    return this.ttl;
  }

  /** The recall tool's answer to `query` now: the product's search, without the messages the last request showed whole. */
  async recall(query: string): Promise<string[]> {
    const shown = (this.shown ??= new Set(this.lastRequest.map((m) => JSON.stringify(m))));
    const stored = this.store.data.messages.get(SESSION_ID) ?? [];
    const excludeSeqs = stored.filter((m) => shown.has(JSON.stringify(m.message))).map((m) => m.seq);
    const hits = await this.store.messages.search(SESSION_ID, query, { limit: RECALL_LIMIT, excludeSeqs, kinds: ["conversation"] });
    return hits.map((h) => messageText(h.message));
  }

  async handoff(appended: readonly Message[], at?: number): Promise<Handoff> {
    this.tick(at);
    // The last answer closes the run: the loop finishes that iteration, then stops with a checkpoint.
    this.control.requestStop();
    if (this.loop && this.model.asking) this.answer(appended);
    await this.loop;
    const checkpoint = await this.store.checkpoints.latest(SESSION_ID);
    const handoff = validateHandoff(checkpoint?.handoff);
    const packet = renderResumePacket(handoff, { storedMessages: await this.store.messages.lastSeq(SESSION_ID) });
    const full = renderHandoffMarkdown(handoff);
    return {
      text: packet,
      tokens: estimatePacketTokens(packet),
      describe: "resume packet",
      decisions: packetDecisions(packet),
      full: {
        text: full,
        tokens: textTokens(full),
        describe: "full handoff (hatloop handoff, Markdown)",
        decisions: handoff.decisions.map((d) => d.what),
      },
    };
  }

  stats(): Record<string, number> {
    return { ...this.counts };
  }

  summaryCalls(): readonly SummaryCall[] {
    return this.summaries;
  }

  private tick(at: number | undefined): void {
    this.now = at ?? (this.loop ? this.now + STEP_MS : START);
  }

  /** The messages before the first answer: the task, and anything the person added before it. */
  private async start(appended: readonly Message[]): Promise<void> {
    const [first, ...rest] = appended;
    const task = (first && (realUserText(first) || allText(first))) || "(no task text)";
    this.steer(rest);
    const hats = loadHats([`${promptsDir}hats`]);
    // The replayed agent's tools are not hatloop's: the hat may call all of them.
    hats.set("creator", { ...hats.get("creator")!, tools: ["*"] });
    await this.store.sessions.create({
      id: SESSION_ID,
      task,
      title: "context bench",
      repoPath: REPO,
      worktreePath: REPO,
      branch: "hatloop/bench",
      baseCommit: "b".repeat(40),
      inPlace: false,
      hat: "creator",
      model: "bench",
      budgets: { maxIterations: null, maxTokens: null, maxCostUsd: null, maxRuntimeMs: null },
      contextWindow: this.ctx.window,
    });
    const manager = createContextManager({
      config: this.config.context,
      store: this.store,
      sessionId: SESSION_ID,
      repoPath: REPO,
      summarizer: null,
      summaryPricing: {
        inputRatio: SUMMARY_PRICE_RATIOS.summary.input,
        maxInputTokens: 21_000,
        outputTokens: (SUMMARY_OUTPUT_TOKENS + FACTS_OUTPUT_TOKENS) * SUMMARY_PRICE_RATIOS.summary.output,
      },
    });
    const context = this.priced(manager);
    const prompts = loadPromptComponents(`${promptsDir}components`);
    const git = this.git();
    const launch = (): Promise<LoopOutcome> =>
      runLoop(
        { sessionId: SESSION_ID, config: this.config },
        {
          store: this.store,
          model: this.model,
          tools: this.tools.tools,
          hats,
          prompts,
          gates: { run: async () => ({ passed: true, checks: [] }) },
          git,
          control: this.control,
          sinks: [(event) => this.observe(event)],
          clock: { now: () => this.now },
          context,
          restub: context.restub,
        },
      );
    this.relaunch = launch;
    this.loop = launch();
  }

  private relaunch: () => Promise<LoopOutcome> = () => Promise.reject(new Error("not started"));

  /** The loop's next request; a run that ended before the transcript did is resumed, as a user would. */
  private async request() {
    for (;;) {
      const loop = this.loop!;
      const got = await Promise.race([this.model.nextRequest().then((request) => ({ request })), loop.then((outcome) => ({ outcome }))]);
      if ("request" in got) {
        this.model.taken();
        return got.request;
      }
      this.counts.resumes++;
      this.loop = this.relaunch();
    }
  }

  /** The answer to the pending call, after its recorded results and the person's words are in place. */
  private answer(appended: readonly Message[]): void {
    const [assistant, ...rest] = appended;
    if (!assistant || assistant.role !== "assistant") throw new Error("expected the transcript's next assistant message");
    this.tools.record(assistant, rest);
    this.steer(rest);
    this.model.answer(assistant);
  }

  private steer(messages: readonly Message[]): void {
    for (const message of messages) {
      const text = realUserText(message);
      if (!text) continue;
      this.control.steer(text);
      this.counts.steering++;
    }
  }

  private observe(event: LoopEvent): void {
    if (event.type === "checkpoint.saved") this.counts.checkpoints++;
    else if (event.type === "context.gauge" && event.data.zone !== "green") this.counts.gaugeLines++;
  }

  /** The context manager, with each compaction counted and its summary calls priced. */
  private priced(manager: ContextManager): ContextManager {
    return {
      ...manager,
      beforeCall: async (view, signal, overflow) => {
        const called = await manager.beforeCall(view, signal, overflow);
        const { compaction } = called;
        if (!compaction) return called;
        this.counts.compactions++;
        if (compaction.strategy.startsWith("removal")) this.counts.removals++;
        else this.counts.prunings++;
        if (compaction.summary !== null && this.config.context.llmSummary) {
          const kept = new Set(compaction.live.map((e) => e.seq));
          this.priceSummaries(
            view.live.filter((e) => !kept.has(e.seq)).map((e) => e.message),
            compaction.summary,
          );
        }
        return called;
      },
    };
  }

  /**
   * The product summarises what pruning drops with the summary model, and extracts facts from it in a
   * second call (core/context/summarize.ts, facts.ts); priced with the product's own prompts.
   */
  private priceSummaries(dropped: Message[], summary: string): void {
    const tokens = (text: string) => Math.ceil(text.length / 4);
    this.summaries.push(
      {
        model: "summary",
        inputTokens: tokens(buildSummaryPrompt(dropped)),
        cachedTokens: 0,
        outputTokens: Math.min(SUMMARY_OUTPUT_TOKENS, estimateTokens([{ role: "assistant", content: summary }])),
      },
      { model: "summary", inputTokens: tokens(buildFactExtractionPrompt(dropped)), cachedTokens: 0, outputTokens: FACTS_OUTPUT_TOKENS },
    );
  }

  /** What git would say: the paths the replayed calls wrote or edited. */
  private git(): GitPort {
    let commits = 0;
    const sha = () => commits.toString(16).padStart(40, "c");
    return {
      commitAll: async () => {
        commits++;
        return sha();
      },
      headCommit: async () => sha(),
      facts: async () => ({
        branch: "hatloop/bench",
        headCommit: sha(),
        modifiedFiles: [...this.tools.changed],
        createdFiles: [],
        deletedFiles: [],
        diffstat: { filesChanged: this.tools.changed.size, insertions: 0, deletions: 0 },
        commits: [],
      }),
    };
  }
}

/** The lines of the packet's "Key decisions" list. */
function packetDecisions(packet: string): string[] {
  const lines = packet.split("\n");
  const start = lines.findIndex((l) => l.startsWith("**Key decisions**"));
  if (start === -1) return [];
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("- "));
  // "(+3 more)" says how many were left out; it is not a decision.
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((l) => l.slice(2))
    .filter((l) => !/^\(\+\d+ more/.test(l));
}

function allText(message: Message): string {
  return typeof message.content === "string"
    ? message.content
    : message.content
        .map((b) => (b.type === "text" ? b.text : ""))
        .join("\n")
        .trim();
}
