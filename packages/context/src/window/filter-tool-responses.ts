import type { ContentBlock, Message, ToolUseBlock } from "../messages.js";
import { messagesOf, type SameEntry, type WindowEntry } from "./entry.js";
import { indexToolUses, isStubbedResult, stubResult } from "./tool-result-stub.js";

// Layer 0, one step (docs/design/context-layers.md): stub a share of the tool results, middle first. Unlike the reference
// loop (docs/design/reference-loop.md, which deleted whole tool_result messages and orphaned their tool_use), a removed result keeps
// its block — same tool_use_id, same place, same is_error — and only its content becomes a stub, so
// the conversation stays valid for the API at every level.

export interface RemovalOptions {
  /** tool_use_ids removed by earlier compactions: always stubbed, so removal is monotone. */
  frozen?: ReadonlySet<string> | readonly string[];
}

export interface RemovalResult<T> {
  /** Every entry, in order, its message with the chosen results stubbed. */
  kept: SameEntry<T>[];
  /** tool_use_ids stubbed by this step's percentage, in removal order (middle first). */
  removed: string[];
  /** Every tool_use_id whose result is a stub in the output: pass it back as `frozen` next time. */
  stubbed: string[];
}

/** One middle-out removal step on bare messages (stubs name no seq); see removeToolResponses. Never mutates the input. */
export function filterToolResponses(messages: readonly Message[], removePercent: number, options: RemovalOptions = {}): Message[] {
  return messagesOf(
    removeToolResponses(
      messages.map((message) => ({ message })),
      removePercent,
      options,
    ).kept,
  );
}

/**
 * Of the live (not yet stubbed, not frozen) tool result blocks — parallel results counted one by
 * one — stubs max(1, ⌊n·p/100⌋) (none at 0%). Results the session has moved past go first: a read
 * of a file read again later, a command run again later, any call repeated later with the same
 * input — the newer result says what is true now. Then the rest, alternating just below and just
 * above the middle, so the first and the most recent results go last. Frozen ids are stubbed at
 * every level.
 */
export function removeToolResponses<T extends WindowEntry>(
  entries: readonly T[],
  removePercent: number,
  options: RemovalOptions = {},
): RemovalResult<T> {
  if (!Number.isFinite(removePercent)) throw new RangeError(`removePercent must be a number, got ${removePercent}`);
  const messages = entries.map((e) => e.message);
  const frozen = new Set(options.frozen ?? []);
  const locations = resultLocations(messages);
  const live = locations.filter((l) => !l.stubbed && !frozen.has(l.id));
  const count = removalCount(live.length, removePercent);
  const uses = indexToolUses(messages);
  const removed = removalOrder(live, supersededIds(locations, uses))
    .slice(0, count)
    .map((i) => live[i]!.id);

  const toStub = new Set([...removed, ...locations.filter((l) => !l.stubbed && frozen.has(l.id)).map((l) => l.id)]);
  const kept = entries.map((entry): SameEntry<T> => {
    const { message } = entry;
    if (typeof message.content === "string" || !message.content.some((b) => b.type === "tool_result" && toStub.has(b.tool_use_id)))
      return { entry, message, rewritten: false };
    const content = message.content.map((block): ContentBlock =>
      block.type === "tool_result" && toStub.has(block.tool_use_id)
        ? stubResult({ block, use: uses.get(block.tool_use_id), seq: entry.seq ?? undefined })
        : block,
    );
    return { entry, message: { ...message, content }, rewritten: false };
  });
  const stubbed = locations.filter((l) => l.stubbed || toStub.has(l.id)).map((l) => l.id);
  return { kept, removed, stubbed };
}

/** How many of n results a percentage removes: none at 0, at least one above 0, all at 100. */
export function removalCount(n: number, removePercent: number): number {
  if (n === 0 || removePercent <= 0) return 0;
  if (removePercent >= 100) return n;
  return Math.min(n, Math.max(1, Math.floor((n * removePercent) / 100)));
}

/** Positions of `live` in removal order: the superseded middle-out, then the others middle-out. */
function removalOrder(live: readonly ResultLocation[], superseded: ReadonlySet<string>): number[] {
  const order = middleOutOrder(live.length);
  return [...order.filter((i) => superseded.has(live[i]!.id)), ...order.filter((i) => !superseded.has(live[i]!.id))];
}

/** Results whose call is made again later (same tool, same target or same input): the later one replaces them. */
function supersededIds(locations: readonly ResultLocation[], uses: ReadonlyMap<string, ToolUseBlock>): Set<string> {
  const latest = new Map<string, string>();
  for (const { id } of locations) {
    const use = uses.get(id);
    if (use) latest.set(callKey(use), id);
  }
  const superseded = new Set<string>();
  for (const { id } of locations) {
    const use = uses.get(id);
    if (use && latest.get(callKey(use)) !== id) superseded.add(id);
  }
  return superseded;
}

/** What a call is about: the file it reads, the command it runs, else its whole input. */
function callKey(use: ToolUseBlock): string {
  const input = use.input !== null && typeof use.input === "object" ? (use.input as Record<string, unknown>) : {};
  const target = ["command", "cmd"].map((k) => input[k]).find((v) => typeof v === "string");
  if (target !== undefined) return `${use.name}\u0000${String(target)}`;
  // A read of part of a file (offset, limit, lines) is about that part: the whole input is the key.
  return `${use.name}\u0000${JSON.stringify(input)}`;
}

/**
 * Positions 0..n-1 in removal order: nearest to the centre first, the lower one first on a tie
 * (n = 4: 1, 2, 0, 3; n = 5: 2, 1, 3, 0, 4). The first result and the newest always come last.
 */
export function middleOutOrder(n: number): number[] {
  const distance = (i: number): number => Math.abs(2 * i - (n - 1));
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => distance(a) - distance(b) || a - b);
}

interface ResultLocation {
  id: string;
  stubbed: boolean;
}

function resultLocations(messages: readonly Message[]): ResultLocation[] {
  const found: ResultLocation[] = [];
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_result") found.push({ id: block.tool_use_id, stubbed: isStubbedResult(block) });
    }
  }
  return found;
}
