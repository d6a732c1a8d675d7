import { itemsOf } from "../continuity/items.js";
import { usedText } from "../continuity/needs.js";
import {
  blocksOf,
  extractDecisionFromResponse,
  extractNextAction,
  mergeDecisions,
  realUserText,
  summarizeMechanically,
  textOf,
  type Message,
} from "@hatloop/context";

// The deterministic stand-in for an LLM summary, with the sections the peer's own prompt asks for,
// filled extractively from the whole history so far: the primary request, the person's later
// messages (Claude Code's prompt asks for all of them verbatim; the API's and Goose's ask for the
// goal, state and next steps), key decisions (hatloop's decision extractor over every response, a
// later change of a setting replacing the earlier one), files read and changed (from the tool
// calls), recent errors, the current work and the next step. It is generous: a real chained summary
// sees its previous summary plus the new messages, and paraphrases.

export type SummaryFlavor = "claude-code" | "api" | "goose";

const USER_MESSAGE_CHARS = 600;
const PRIMARY_CHARS = 2_000;
const CURRENT_WORK_CHARS = 1_200;
const MAX_DECISIONS = 20;
const MAX_ERRORS = 5;
const MAX_FILES_READ = 30;
const PATH_KEYS = ["path", "file_path", "filePath", "absolutePath", "file", "notebook_path"];
/**
 * Real summaries name specifics the work is about. Calibrated on the agents' own summaries in the
 * corpus (continuity/calibration.ts, docs/benchmarks.md): Claude Code's keep about as many needed
 * items as the stand-in's sections without a list; pi's keep more, which a list of what the agent
 * named in its last 100 messages (up to 200 items) comes closest to without keeping more.
 */
const SPECIFICS: Record<SummaryFlavor, number> = { "claude-code": 0, api: 200, goose: 200 };
const SPECIFICS_FROM_MESSAGES = 100;

export function standInSummary(history: readonly Message[], flavor: SummaryFlavor = "claude-code"): string {
  const users = history.map(realUserText).filter(Boolean);
  const [primary, ...others] = users;
  const mechanical = summarizeMechanically(history, { extractDecision: extractDecisionFromResponse, maxChars: 0 });
  const decisions = mergeDecisions(
    [],
    mechanical.decisions.map((what) => ({ what, when: null })),
  ).map((d) => d.what);
  const assistants = history.filter((m) => m.role === "assistant");
  const last = assistants.at(-1);
  const next =
    assistants
      .slice(-5)
      .reverse()
      .map((m) => extractNextAction(textOf(m)))
      .find((n) => n !== null) ?? null;
  const changed = new Set(mechanical.filesChanged);
  const read = filesNamed(history).filter((p) => !changed.has(p));
  const list = (items: readonly string[]): string => (items.length ? items.map((i) => `- ${i}`).join("\n") : "(none)");
  const sections = [
    `## Summary of the conversation so far (deterministic stand-in for an LLM summary, ${flavor} prompt)`,
    `### Primary request\n${primary ? clip(primary, PRIMARY_CHARS) : "(none)"}`,
    flavor === "claude-code"
      ? `### All user messages\n${list(others.map((t) => clip(t, USER_MESSAGE_CHARS)))}`
      : `### Latest request\n${others.length ? clip(others.at(-1)!, USER_MESSAGE_CHARS) : "(as above)"}`,
    `### Key decisions\n${list(decisions.slice(-MAX_DECISIONS))}`,
    `### Files changed\n${list(mechanical.filesChanged)}`,
    `### Files read\n${list(read.slice(-MAX_FILES_READ))}`,
    `### Errors\n${list(mechanical.errors.slice(-MAX_ERRORS))}`,
    ...(SPECIFICS[flavor] ? [`### Specifics in play\n${specifics(assistants, SPECIFICS[flavor]).join(", ") || "(none)"}`] : []),
    `### Current work\n${last ? clip(textOf(last), CURRENT_WORK_CHARS) : "(none)"}`,
    `### Next step\n${next ?? "(not stated)"}`,
  ];
  return sections.join("\n\n");
}

/** The items (paths, identifiers, values) the agent named in its latest messages, newest first. */
function specifics(assistants: readonly Message[], max: number): string[] {
  const out = new Set<string>();
  for (const m of assistants.slice(-SPECIFICS_FROM_MESSAGES).reverse()) {
    for (const item of itemsOf(usedText(m))) if (out.size < max && item.length <= 80) out.add(item);
  }
  return [...out];
}

/** Paths the tool calls named (read or written), oldest first, each once. */
export function filesNamed(history: readonly Message[]): string[] {
  const paths = new Set<string>();
  for (const m of history)
    for (const b of blocksOf(m))
      if (b.type === "tool_use" && b.input !== null && typeof b.input === "object")
        for (const key of PATH_KEYS) {
          const value = (b.input as Record<string, unknown>)[key];
          if (typeof value === "string" && value) {
            paths.delete(value);
            paths.add(value);
          }
        }
  return [...paths];
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
