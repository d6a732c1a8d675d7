import { isDecisionNoise } from "./decision-quality.js";
import { dedupForm, formsAreDuplicates, type DedupForm } from "./dedup.js";
import { settingNames } from "./setting.js";
import { collapseWhitespace, stripListMarker, stripMarkdown } from "./text.js";

// The running sets of decisions and open items. Capture skips an item that semantically duplicates
// one already held (docs/design/checkpoint-quality.md); merging a checkpoint's items into the running set keeps
// the newest wording and drops the duplicates it replaces. Both are capped,
// dropping the oldest, so the sets cannot grow without bound (200 decisions). A decision
// that changes a named setting supersedes every held one that changed the same name (setting.ts).

export interface DecisionRecord {
  /** "d1", "d2", ... stable once assigned. */
  id: string;
  what: string;
  /** ISO time of capture when known. */
  when: string | null;
}

/** The whole session's decisions, not the last few: the handoff lists them all, the packet ranks them. */
const MAX_DECISIONS = 200;
const MAX_OPEN_ITEMS = 20;

/** An item as stored: list marker dropped, whitespace collapsed. */
export function cleanItem(text: string): string {
  return collapseWhitespace(stripListMarker(text.trim()));
}

function nextDecisionId(decisions: readonly DecisionRecord[]): string {
  const max = decisions.reduce((m, d) => Math.max(m, Number(/^d(\d+)$/.exec(d.id)?.[1] ?? 0)), 0);
  return `d${max + 1}`;
}

function capNewest<T>(items: readonly T[], cap: number): T[] {
  return items.slice(Math.max(0, items.length - cap));
}

interface DecisionForm {
  dedup: DedupForm;
  settings: Set<string>;
}

function decisionForm(what: string): DecisionForm {
  return { dedup: dedupForm(what), settings: settingNames(stripMarkdown(what)) };
}

/** The newer decision changes a setting the held one changed. */
function supersedes(newer: DecisionForm, held: DecisionForm): boolean {
  for (const name of newer.settings) if (held.settings.has(name)) return true;
  return false;
}

/**
 * Adds a decision unless it is noise or a semantic duplicate of one already held; one that changes
 * a setting a held decision changed replaces that decision (keeping its id).
 */
export function captureDecision(
  decisions: readonly DecisionRecord[],
  what: string,
  when: string | null,
  cap: number = MAX_DECISIONS,
): DecisionRecord[] {
  const text = cleanItem(what);
  if (isDecisionNoise(text)) return [...decisions];
  const form = decisionForm(text);
  const held = decisions.map((d) => ({ d, form: decisionForm(d.what) }));
  const replaced = held.filter((h) => supersedes(form, h.form)).map((h) => h.d);
  if (replaced.length === 0 && held.some((h) => formsAreDuplicates(h.form.dedup, form.dedup))) return [...decisions];
  const id = replaced[0]?.id ?? nextDecisionId(decisions);
  return capNewest([...decisions.filter((d) => !replaced.includes(d)), { id, what: text, when }], cap);
}

/**
 * Merges newer decisions into a running set. An incoming decision that duplicates held ones, or
 * changes a setting they changed, replaces them (newest wording and time, the oldest matched id),
 * moving to the end; others are appended with fresh ids. Noise is dropped from both sides.
 */
export function mergeDecisions(
  running: readonly DecisionRecord[],
  incoming: readonly Pick<DecisionRecord, "what" | "when">[],
  cap: number = MAX_DECISIONS,
): DecisionRecord[] {
  let result: Array<DecisionRecord & { form: DecisionForm }> = running
    .filter((d) => !isDecisionNoise(d.what))
    .map((d) => ({ ...d, form: decisionForm(d.what) }));
  for (const next of incoming) {
    const what = cleanItem(next.what);
    if (isDecisionNoise(what)) continue;
    const form = decisionForm(what);
    const matched = result.filter((d) => formsAreDuplicates(d.form.dedup, form.dedup) || supersedes(form, d.form));
    const id = matched[0]?.id ?? nextDecisionId(result);
    result = [...result.filter((d) => !matched.includes(d)), { id, what, when: next.when, form }];
  }
  return capNewest(
    result.map(({ form: _form, ...d }) => d),
    cap,
  );
}

/** Adds an open item unless it is empty or a semantic duplicate of one already held. */
export function captureOpenItem(items: readonly string[], item: string, cap: number = MAX_OPEN_ITEMS): string[] {
  const text = cleanItem(item);
  if (text.length === 0) return [...items];
  const form = dedupForm(text);
  if (items.some((existing) => formsAreDuplicates(dedupForm(existing), form))) return [...items];
  return capNewest([...items, text], cap);
}

/** Merges newer open items into a running set: newest wording wins, duplicates dropped, capped. */
export function mergeOpenItems(running: readonly string[], incoming: readonly string[], cap: number = MAX_OPEN_ITEMS): string[] {
  return capNewest(dedupeKeepNewest([...running, ...incoming]), cap);
}

/**
 * Semantic dedup of a list where later entries are newer: each entry survives only if no later entry
 * duplicates it. Order of the survivors is kept.
 */
export function dedupeKeepNewest(items: readonly string[]): string[] {
  const cleaned = items.map(cleanItem).filter((t) => t.length > 0);
  const forms = cleaned.map(dedupForm);
  return cleaned.filter((_, i) => !forms.slice(i + 1).some((later) => formsAreDuplicates(forms[i]!, later)));
}

/** Open items that are not semantically covered by something already resolved (e.g. done items). */
export function withoutResolved(items: readonly string[], resolved: readonly string[]): string[] {
  const done = resolved.map(dedupForm);
  return items.filter((item) => {
    const form = dedupForm(item);
    return !done.some((d) => formsAreDuplicates(d, form));
  });
}
