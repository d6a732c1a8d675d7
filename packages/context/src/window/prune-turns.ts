import { MARKERS } from "../markers.js";
import { toolResults, toolResultText, type ContentBlock, type Message, type ToolResultBlock } from "../messages.js";
import type { KeptEntry, WindowEntry } from "./entry.js";
import { estimateTokens } from "./estimate-tokens.js";
import { stripArtifacts } from "./strip-artifacts.js";
import { indexToolUses, isStubbedResult, stubResult } from "./tool-result-stub.js";
import { isTurnStart, splitTurns } from "./turns.js";
import type { ContextZone } from "./zones.js";

// Turn-aware pruning (docs/design/context-layers.md), the step after Layer 0 when that was not enough: keep a recent
// suffix of whole turns (fewer as pressure rises), drop older turns whole instead of keeping their
// chatter forever, keep the newest turn lossless and distil bulky results in the older kept turns.
// The dropped entries go back to the caller, who summarises them and injects one lean packet.

export interface ZonePrunePolicy {
  /** Whole turns kept, the newest included (at least 1). */
  maxTurns: number;
  /** Tool results longer than this (characters) in older kept turns become stubs. */
  distillOverChars: number;
}

export interface PruneTurnsOptions {
  /** The policy's turn count (config context.keepTurns). Default 4. */
  keepTurns?: number;
  /** Current pressure; tightens the turn count and the distil threshold. Default "green". */
  zone?: ContextZone;
  /** Per-zone overrides of the defaults from zonePrunePolicy. */
  zonePolicy?: Partial<Record<ContextZone, Partial<ZonePrunePolicy>>>;
  /**
   * Last resort for one enormous turn (a long run of tool calls without a continuation): when the
   * kept messages still exceed this, older kept turns go, then the newest turn's oldest steps
   * (assistant call + results), keeping its opening message and its last step.
   */
  maxTokens?: number;
  /** Token count used with maxTokens; default estimateTokens. */
  estimate?: (messages: readonly Message[]) => number;
}

export interface PruneResult<T> {
  /**
   * The pruned history. A message whose leading tool results (closing a dropped turn) were cut, or
   * the continuation written for a history without a real user message, is `rewritten`.
   */
  kept: KeptEntry<T>[];
  /** Entries dropped with older turns (or steps), in order: archive and summarise these. */
  dropped: T[];
  /** Entries whose summary/resume artifact text was removed or blanked (not to be summarised again). */
  artifacts: T[];
  /** tool_use_ids whose results were distilled to stubs (add them to the frozen set). */
  distilled: string[];
  keptTurns: number;
  policy: ZonePrunePolicy;
}

/** Green keeps keepTurns; each worse zone keeps fewer and distils smaller results; compact keeps one. */
export function zonePrunePolicy(zone: ContextZone, keepTurns: number, overrides: PruneTurnsOptions["zonePolicy"] = {}): ZonePrunePolicy {
  const n = Math.max(1, Math.floor(keepTurns));
  const defaults: Record<ContextZone, ZonePrunePolicy> = {
    green: { maxTurns: n, distillOverChars: 2_000 },
    gauge: { maxTurns: Math.max(1, n - 1), distillOverChars: 1_500 },
    warn: { maxTurns: Math.max(1, Math.ceil(n / 2)), distillOverChars: 1_000 },
    compact: { maxTurns: 1, distillOverChars: 500 },
  };
  const merged = { ...defaults[zone], ...overrides[zone] };
  return { maxTurns: Math.max(1, Math.floor(merged.maxTurns)), distillOverChars: Math.max(0, merged.distillOverChars) };
}

interface Entry {
  index: number;
  message: Message;
}

const CONTINUE: KeptEntry<never> = {
  entry: null,
  message: { role: "user", content: `${MARKERS.continuation} Continue the task.` },
  rewritten: true,
};

export function pruneTurns<T extends WindowEntry>(input: readonly T[], options: PruneTurnsOptions = {}): PruneResult<T> {
  const policy = zonePrunePolicy(options.zone ?? "green", options.keepTurns ?? 4, options.zonePolicy);
  // Inside, a message is known by its position in `input`; only entries leave this function.
  const messages = input.map((e) => e.message);
  const stripped = stripArtifacts(messages);
  // Turns of what is left: an artifact-only turn is gone, a message that lost its artifact text
  // belongs wherever its remaining content puts it, and a preamble (history not starting with a
  // real user message) never counts as a turn to keep.
  const remaining: Entry[] = stripped.messages.flatMap((message, index) => (message === null ? [] : [{ index, message }]));
  const turns = splitTurns(remaining.map((e) => e.message))
    .filter((t) => isTurnStart(remaining[t.start]!.message))
    .map((t) => remaining.slice(t.start, t.end));
  let kept = turns.slice(-policy.maxTurns);

  const uses = indexToolUses(messages);
  const distilledBy = new Map<number, string[]>();
  const distilTurn = (turn: readonly Entry[]): Entry[] =>
    turn.map(({ index, message }) => {
      const ids: string[] = [];
      const out = distil(message, policy.distillOverChars, (block) => {
        ids.push(block.tool_use_id);
        return stubResult({ block, use: uses.get(block.tool_use_id), seq: input[index]!.seq ?? undefined });
      });
      if (ids.length) distilledBy.set(index, ids);
      return { index, message: out };
    });
  // The newest turn stays lossless; older kept turns are distilled.
  const build = (turns: readonly Entry[][]): Entry[][] => turns.map((t, k) => (k === turns.length - 1 ? [...t] : distilTurn(t)));

  let groups = build(kept);
  if (options.maxTokens !== undefined) {
    const estimate = options.estimate ?? ((m: readonly Message[]) => estimateTokens(m));
    const over = (): boolean => estimate(withoutLeadingResults(groups.flat()).map((e) => e.message)) > options.maxTokens!;
    while (kept.length > 1 && over()) {
      kept = kept.slice(1);
      groups = build(kept);
    }
    const newest = groups[groups.length - 1];
    if (newest)
      groups[groups.length - 1] = trimSteps(
        newest,
        (entries) => estimate(withoutLeadingResults(entries).map((e) => e.message)) > options.maxTokens!,
      );
  }

  const flat = groups.flat();
  const trimmedIndex = flat[0] && hasResults(flat[0].message) ? flat[0].index : null;
  const entries = withoutLeadingResults(flat);
  const keptIndices = new Set(entries.map((e) => e.index));
  const artifactSet = new Set(stripped.artifacts);
  const dropped = input.filter((_, i) => !keptIndices.has(i) && !artifactSet.has(i));
  let keptEntries = entries.map(({ index, message }): KeptEntry<T> => {
    const entry = input[index]!;
    return index === trimmedIndex ? { entry, message, rewritten: true } : { entry, message, rewritten: false };
  });
  // Only a history without any real user message gets here empty-handed; it still has to start with one.
  if (keptEntries.length === 0 && dropped.length > 0) keptEntries = [CONTINUE];
  const present = new Set(entries.flatMap((e) => toolResults(e.message).map((r) => r.tool_use_id)));
  const distilled = entries.flatMap((e) => distilledBy.get(e.index) ?? []).filter((id) => present.has(id));
  return {
    kept: keptEntries,
    dropped,
    artifacts: stripped.artifacts.map((i) => input[i]!),
    distilled,
    keptTurns: kept.length,
    policy,
  };
}

/** The first kept message may carry results of the (dropped) turn before it: they go with that turn. */
function withoutLeadingResults(entries: readonly Entry[]): Entry[] {
  const first = entries[0];
  if (first === undefined || !hasResults(first.message) || typeof first.message.content === "string") return [...entries];
  const content = first.message.content.filter((b) => b.type !== "tool_result");
  return [{ index: first.index, message: { ...first.message, content } }, ...entries.slice(1)];
}

/** Drops the oldest steps (an assistant message and what follows it) while tooBig, keeping the opening message and the last step. */
function trimSteps(entries: readonly Entry[], tooBig: (entries: readonly Entry[]) => boolean): Entry[] {
  const [opening, ...rest] = entries;
  if (opening === undefined) return [];
  const steps: Entry[][] = [];
  for (const e of rest) {
    if (e.message.role === "assistant" || steps.length === 0) steps.push([e]);
    else steps[steps.length - 1]!.push(e);
  }
  let keptSteps = steps;
  while (keptSteps.length > 1 && tooBig([opening, ...keptSteps.flat()])) keptSteps = keptSteps.slice(1);
  return [opening, ...keptSteps.flat()];
}

function distil(message: Message, overChars: number, toStub: (block: ToolResultBlock) => ContentBlock): Message {
  if (typeof message.content === "string") return message;
  const bulky = (b: ContentBlock): b is ToolResultBlock =>
    b.type === "tool_result" && !isStubbedResult(b) && (toolResultText(b).length > overChars || hasImage(b));
  if (!message.content.some(bulky)) return message;
  return { ...message, content: message.content.map((b) => (bulky(b) ? toStub(b) : b)) };
}

function hasResults(message: Message): boolean {
  return toolResults(message).length > 0;
}

function hasImage(block: ToolResultBlock): boolean {
  return typeof block.content !== "string" && block.content.some((c) => c.type === "image");
}
