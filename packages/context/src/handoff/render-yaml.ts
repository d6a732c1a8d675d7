import { Document, isPair, isScalar, parse, Scalar, visit, type Pair } from "yaml";
import type { Handoff } from "./types.js";
import { HandoffFormatError, validateHandoff } from "./validate.js";

// YAML in the checkpoint layout of docs/design/handoff.md (meta, git, progress, working, decisions, thread, open
// items, learnings ...). Its safety rules: free text is always a block scalar (no
// colon, quote, `#` or leading-dash surprises), every other string is double-quoted (tool names,
// paths, ids, SHAs that look like numbers), and keys are fixed names, never user content.

const FREE_TEXT = new Set([
  "task_title",
  "topic",
  "next_action",
  "params_summary",
  "what",
  "summary",
  "gist",
  "subject",
  "continuation_prompt",
  "last_error",
  "recovery_hint",
  "last_failure",
  "instructions",
  "completed_items",
  "remaining_items",
  "blocking_issues",
  "key_decisions",
  "open_items",
  "learnings",
]);

function layoutOf(h: Handoff): Record<string, unknown> {
  return {
    schema: h.schema,
    schema_version: h.schema_version,
    meta: { generated_at: h.generated_at, task_title: h.task_title, current_hat: h.current_hat },
    instructions: h.instructions,
    git: {
      branch: h.branch,
      head_commit: h.head_commit,
      modified_files: h.modified_files,
      created_files: h.created_files,
      deleted_files: h.deleted_files,
      diffstat: h.diffstat,
      commits: h.commits,
    },
    progress: { completed_items: h.completed_items, remaining_items: h.remaining_items, blocking_issues: h.blocking_issues },
    working: h.working,
    decisions: h.decisions,
    key_decisions: h.key_decisions,
    thread: h.thread,
    open_items: h.open_items,
    learnings: h.learnings,
    usage: h.usage,
    failure: h.failure,
    ...(h.open_question ? { open_question: h.open_question } : {}),
    ...(h.acceptance ? { acceptance: h.acceptance } : {}),
    continuation_prompt: h.continuation_prompt,
  };
}

/** The field a scalar belongs to: its pair's key, or for a list item the key of the list's pair. */
function fieldOf(path: readonly unknown[]): string | null {
  const pair = [...path].reverse().find((node): node is Pair => isPair(node));
  return pair !== undefined && isScalar(pair.key) ? String(pair.key.value) : null;
}

export function renderHandoffYaml(handoff: Handoff): string {
  const doc = new Document(layoutOf(validateHandoff(handoff)));
  visit(doc, {
    Scalar(key, node, path) {
      if (key === "key" || typeof node.value !== "string") return;
      const field = fieldOf(path);
      node.type = field !== null && FREE_TEXT.has(field) ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE;
    },
  });
  return `# hatloop handoff\n${doc.toString({ lineWidth: 0 })}`;
}

function group(o: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = o[name];
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new HandoffFormatError(`$.${name}`, "expected a mapping");
  return value as Record<string, unknown>;
}

/** Parses and validates the YAML layout; throws HandoffFormatError for bad YAML or a wrong shape. */
export function parseHandoffYaml(text: string): Handoff {
  let value: unknown;
  try {
    value = parse(text, { uniqueKeys: true });
  } catch (error) {
    throw new HandoffFormatError("$", `not YAML (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new HandoffFormatError("$", "expected a mapping");
  const o = value as Record<string, unknown>;
  const meta = group(o, "meta");
  const git = group(o, "git");
  const progress = group(o, "progress");
  return validateHandoff({
    schema: o.schema,
    schema_version: o.schema_version,
    generated_at: meta.generated_at,
    task_title: meta.task_title,
    instructions: o.instructions,
    current_hat: meta.current_hat,
    branch: git.branch,
    head_commit: git.head_commit,
    completed_items: progress.completed_items,
    remaining_items: progress.remaining_items,
    blocking_issues: progress.blocking_issues,
    modified_files: git.modified_files,
    created_files: git.created_files,
    deleted_files: git.deleted_files,
    key_decisions: o.key_decisions,
    continuation_prompt: o.continuation_prompt,
    working: o.working,
    thread: o.thread,
    open_items: o.open_items,
    decisions: o.decisions,
    learnings: o.learnings,
    diffstat: git.diffstat,
    commits: git.commits,
    usage: o.usage,
    failure: o.failure,
    open_question: o.open_question,
    acceptance: o.acceptance,
  });
}
