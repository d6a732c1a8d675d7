import { MARKERS } from "../markers.js";
import { toolResultText, type ContentBlock, type Message, type ToolResultBlock } from "../messages.js";
import { stripArtifacts } from "./strip-artifacts.js";
import { indexToolUses, isStubbedResult, stubResult } from "./tool-result-stub.js";
import { isTurnStart, splitTurns, type Turn } from "./turns.js";
import type { ContextZone } from "./zones.js";

// Seed 003's turn-aware pruning, the step after Layer 0 when that was not enough: keep a recent
// suffix of whole turns (fewer as pressure rises), drop older turns whole instead of keeping their
// chatter forever, keep the newest turn lossless and distil bulky results in the older kept turns.
// Dropped indices go back to the caller, who summarises them and injects one lean packet.

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
  /** Stored sequence number of each message (parallel to messages), named in the stubs. */
  seqs?: readonly (number | undefined)[];
}

export interface PruneResult {
  messages: Message[];
  /** Indices of original messages dropped with older turns: archive and summarise these. */
  dropped: number[];
  /** Indices of summary/resume artifacts removed or blanked (not to be summarised again). */
  artifacts: number[];
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

export function pruneTurns(messages: readonly Message[], options: PruneTurnsOptions = {}): PruneResult {
  const policy = zonePrunePolicy(options.zone ?? "green", options.keepTurns ?? 4, options.zonePolicy);
  const stripped = stripArtifacts(messages);
  const artifactSet = new Set(stripped.artifacts);

  // Turns of what is left; a turn that was only an artifact disappears with it. A preamble (history
  // not starting with a real user message) never counts as a turn to keep.
  const turns = splitTurns(messages).filter((t) => stripped.messages[t.start] !== null);
  const real = turns.filter((t) => isTurnStart(stripped.messages[t.start] ?? messages[t.start]!));
  const kept = real.slice(-policy.maxTurns);
  const keptSet = new Set(kept.flatMap(indicesOf));

  const uses = indexToolUses(messages);
  const newest = kept[kept.length - 1];
  const distilled: string[] = [];
  const out: Message[] = [];
  for (const turn of kept) {
    for (const i of indicesOf(turn)) {
      const message = stripped.messages[i];
      if (message === null || message === undefined) continue;
      out.push(turn === newest ? message : distil(message, policy.distillOverChars, (block) => {
        distilled.push(block.tool_use_id);
        return stubResult({ block, use: uses.get(block.tool_use_id), seq: options.seqs?.[i] });
      }));
    }
  }
  const dropped = messages.flatMap((_, i) => (keptSet.has(i) || artifactSet.has(i) ? [] : [i]));
  // Only a history without any real user message gets here empty-handed; it still has to start with one.
  if (out.length === 0 && dropped.length > 0) out.push({ role: "user", content: `${MARKERS.continuation} Continue the task.` });
  return { messages: out, dropped, artifacts: stripped.artifacts, distilled, keptTurns: kept.length, policy };
}

function distil(message: Message, overChars: number, toStub: (block: ToolResultBlock) => ContentBlock): Message {
  if (typeof message.content === "string") return message;
  const bulky = (b: ContentBlock): b is ToolResultBlock =>
    b.type === "tool_result" && !isStubbedResult(b) && (toolResultText(b).length > overChars || hasImage(b));
  if (!message.content.some(bulky)) return message;
  return { ...message, content: message.content.map((b) => (bulky(b) ? toStub(b) : b)) };
}

function hasImage(block: ToolResultBlock): boolean {
  return typeof block.content !== "string" && block.content.some((c) => c.type === "image");
}

function indicesOf(turn: Turn): number[] {
  return Array.from({ length: turn.end - turn.start }, (_, k) => turn.start + k);
}
