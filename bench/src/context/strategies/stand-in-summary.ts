import {
  extractDecisionFromResponse,
  extractNextAction,
  isRealUserMessage,
  mergeDecisions,
  realUserText,
  summarizeMechanically,
  textOf,
  type Message,
} from "@hatloop/context";

// The deterministic stand-in for an LLM summary (Goose / Claude Code style), with the sections such
// a prompt asks for, filled extractively from the whole history so far: the primary request and every
// later user message verbatim (Claude Code's "All user messages"), key decisions (hatloop's decision
// extractor over every response, a later change of a setting replacing the earlier one, as a model
// summarising the whole history would state only the current value), files changed (from the tool
// calls), recent errors, the current work and the next step. It is generous: a real chained summary
// sees its previous summary plus the new messages, and paraphrases.

const USER_MESSAGE_CHARS = 600;
const CURRENT_WORK_CHARS = 1_200;
const MAX_DECISIONS = 20;
const MAX_ERRORS = 5;

export function standInSummary(history: readonly Message[]): string {
  const users = history.filter(isRealUserMessage).map((m) => clip(realUserText(m), USER_MESSAGE_CHARS));
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
  const list = (items: readonly string[]): string => (items.length ? items.map((i) => `- ${i}`).join("\n") : "(none)");
  return [
    "## Summary of the conversation so far (deterministic stand-in for an LLM summary)",
    `### Primary request\n${primary ?? "(none)"}`,
    `### All user messages\n${list(others)}`,
    `### Key decisions\n${list(decisions.slice(-MAX_DECISIONS))}`,
    `### Files changed\n${list(mechanical.filesChanged)}`,
    `### Errors\n${list(mechanical.errors.slice(-MAX_ERRORS))}`,
    `### Current work\n${last ? clip(textOf(last), CURRENT_WORK_CHARS) : "(none)"}`,
    `### Next step\n${next ?? "(not stated)"}`,
  ].join("\n\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
