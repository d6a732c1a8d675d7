import { isSemanticDuplicate } from "./dedup.js";
import { factKey, normalizeValue, parseStatement } from "./fact-statement.js";
import type { ExistingFact, FactCandidate, FactOp } from "./facts-types.js";

// Mem0-style reconciliation (docs/design/memory-and-recall.md): each candidate becomes ADD (new), UPDATE (same key, more
// detail), SUPERSEDE (same key, contradicting value; the old row is kept, marked superseded) or NONE
// (already known). DELETE does not exist: a model must never be able to erase facts. The result
// does not depend on the order of either input: candidates with the same key are decided by seq,
// then detail, then content; ops come out sorted by key.

type Id = ExistingFact["id"];

function tokens(text: string): string[] {
  return normalizeValue(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** True when `detailed` says everything `plain` says, as a whole-word run, and more. */
function refines(detailed: string, plain: string): boolean {
  const long = tokens(detailed);
  const short = tokens(plain);
  if (short.length === 0 || long.length <= short.length) return false;
  return long.some((_, i) => short.every((t, j) => long[i + j] === t));
}

function valueOf(key: string, content: string): string {
  return key.startsWith("note:") ? content : (parseStatement(content)?.value ?? content);
}

/** Code-unit order: the same on every machine and locale. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIds(a: Id, b: Id): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return cmp(String(a), String(b));
}

/** Newest first: higher seq, then the more detailed content, then content, then type. */
function newerFirst(a: FactCandidate, b: FactCandidate): number {
  const seq = (b.seq ?? 0) - (a.seq ?? 0);
  if (seq !== 0) return seq;
  if (refines(a.content, b.content)) return -1;
  if (refines(b.content, a.content)) return 1;
  return cmp(b.content, a.content) || cmp(b.type, a.type) || cmp(a.key, b.key);
}

function canonical(candidate: FactCandidate): FactCandidate {
  return { ...candidate, key: candidate.key.trim().toLowerCase(), content: candidate.content.trim() };
}

/** The op for a batch winner against the stored fact with the same key. */
function againstSameKey(stored: ExistingFact, fact: FactCandidate): FactOp {
  const base = { id: stored.id, previous: stored.content, fact };
  const oldValue = valueOf(fact.key, stored.content);
  const newValue = valueOf(fact.key, fact.content);
  if (normalizeValue(oldValue) === normalizeValue(newValue) || refines(oldValue, newValue)) {
    return refines(fact.content, stored.content) ? { op: "UPDATE", ...base } : { op: "NONE", fact, reason: "duplicate", id: stored.id };
  }
  if (refines(newValue, oldValue)) return { op: "UPDATE", ...base };
  if (fact.key.startsWith("note:") && isSemanticDuplicate(stored.content, fact.content)) {
    return { op: "NONE", fact, reason: "duplicate", id: stored.id };
  }
  return { op: "SUPERSEDE", ...base };
}

/** A stored fact under another key that already says this (notes: semantically; others: exactly). */
function coveredElsewhere(stored: readonly ExistingFact[], fact: FactCandidate): ExistingFact | undefined {
  const loose = fact.key.startsWith("note:");
  return stored.find((s) =>
    loose ? isSemanticDuplicate(s.content, fact.content) : normalizeValue(s.content) === normalizeValue(fact.content),
  );
}

/**
 * The operations that bring `existing` (active facts) up to date with `candidates`. Pure and
 * deterministic; apply SUPERSEDE as "mark id superseded, add fact".
 */
export function reconcileFacts(existing: readonly ExistingFact[], candidates: readonly FactCandidate[]): FactOp[] {
  const stored = existing
    .map((f) => ({ ...f, key: (f.key ?? factKey(f.content)).trim().toLowerCase() }))
    .sort((a, b) => cmp(a.key, b.key) || compareIds(b.id, a.id));
  const storedByKey = new Map<string, ExistingFact>();
  for (const fact of stored) if (!storedByKey.has(fact.key)) storedByKey.set(fact.key, fact);

  const ordered = candidates
    .map(canonical)
    .filter((c) => c.key && c.content)
    .sort(newerFirst);
  const ops: FactOp[] = [];
  const winners: FactCandidate[] = [];
  for (const fact of ordered) {
    const newer = winners.find((w) => w.key === fact.key || (fact.key.startsWith("note:") && isSemanticDuplicate(w.content, fact.content)));
    if (newer !== undefined) {
      const same = normalizeValue(newer.content) === normalizeValue(fact.content);
      ops.push({ op: "NONE", fact, reason: same ? "duplicate" : "outdated-in-batch", id: null });
      continue;
    }
    winners.push(fact);
    const sameKey = storedByKey.get(fact.key);
    const elsewhere = sameKey === undefined ? coveredElsewhere(stored, fact) : undefined;
    if (sameKey !== undefined) ops.push(againstSameKey(sameKey, fact));
    else if (elsewhere !== undefined) ops.push({ op: "NONE", fact, reason: "duplicate", id: elsewhere.id });
    else ops.push({ op: "ADD", fact });
  }
  return ops.sort((a, b) => cmp(a.fact.key, b.fact.key) || newerFirst(a.fact, b.fact) || cmp(a.op, b.op));
}
