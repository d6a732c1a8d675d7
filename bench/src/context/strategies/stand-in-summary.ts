import { extractDecisionFromResponse, isRealUserMessage, realUserText, summarizeMechanically, textOf, type Message } from "@hatloop/context";

// The deterministic stand-in for an LLM summary (Goose / Claude Code style), built from the whole
// history so far: the primary request and every user message verbatim (Claude Code's "All user
// messages"), the mechanical summary (files changed, commands, errors, decisions, tool calls) and the
// current work (the latest response). It is generous: a real chained summary sees its previous
// summary plus the new messages, not the whole history, and may drop what this keeps verbatim.

const WORK_CHARS = 8_000;
const USER_MESSAGE_CHARS = 600;
const CURRENT_WORK_CHARS = 1_200;

export function standInSummary(history: readonly Message[]): string {
  const users = history.filter(isRealUserMessage).map((m) => clip(realUserText(m), USER_MESSAGE_CHARS));
  const [primary, ...others] = users;
  const work = summarizeMechanically(history, { extractDecision: extractDecisionFromResponse, maxChars: WORK_CHARS }).text;
  const last = [...history].reverse().find((m) => m.role === "assistant");
  return [
    "## Summary of the conversation so far (deterministic stand-in for an LLM summary)",
    "### Primary request",
    primary ?? "(none)",
    "### All user messages",
    others.length ? others.map((u) => `- ${u}`).join("\n") : "(none besides the request)",
    "### Work so far",
    work,
    "### Current work",
    last ? clip(textOf(last), CURRENT_WORK_CHARS) : "(none)",
  ].join("\n\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
