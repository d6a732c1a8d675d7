import type { Message } from "../messages.js";

// What the Messages API requires of a conversation's tool pairing, as a list of problems (empty =
// valid). Every transformation in this directory is tested against it at every level, and the
// benchmarks reuse it. The reference loop broke these rules (orphaned tool_use, two assistant
// turns in a row) and its tests never noticed because they used lone tool results.

type PairingProblemCode =
  | "empty-conversation"
  | "first-not-user"
  | "same-role-adjacent"
  | "empty-message"
  | "tool-use-in-user"
  | "tool-result-in-assistant"
  | "duplicate-tool-use-id"
  | "missing-tool-result"
  | "duplicate-tool-result"
  | "orphan-tool-result"
  | "tool-result-after-text";

export interface PairingProblem {
  code: PairingProblemCode;
  /** Index of the message the problem is in. */
  index: number;
  detail: string;
}

export interface PairingOptions {
  /** Accept a final assistant message whose tool calls have not been answered yet. Default false. */
  allowPendingToolUse?: boolean;
}

export function validatePairing(messages: readonly Message[], opts: PairingOptions = {}): PairingProblem[] {
  const problems: PairingProblem[] = [];
  const report = (code: PairingProblemCode, index: number, detail: string): void => {
    problems.push({ code, index, detail });
  };
  if (messages.length === 0) report("empty-conversation", 0, "no messages");
  else if (messages[0]?.role !== "user") report("first-not-user", 0, "the first message must be a user message");

  const seenUses = new Set<string>();
  messages.forEach((message, i) => {
    const blocks = typeof message.content === "string" ? null : message.content;
    if (i > 0 && messages[i - 1]?.role === message.role) report("same-role-adjacent", i, `two ${message.role} messages in a row`);
    if (blocks === null ? message.content === "" : blocks.length === 0) report("empty-message", i, "message has no content");
    if (blocks === null) return;

    if (message.role === "user") {
      for (const b of blocks) if (b.type === "tool_use") report("tool-use-in-user", i, `tool_use ${b.id} in a user message`);
      checkResultsAnswerPrevious(messages, i, report);
      return;
    }
    for (const b of blocks) {
      if (b.type === "tool_result") report("tool-result-in-assistant", i, `tool_result ${b.tool_use_id} in an assistant message`);
      if (b.type !== "tool_use") continue;
      if (seenUses.has(b.id)) report("duplicate-tool-use-id", i, `tool_use id ${b.id} used twice`);
      seenUses.add(b.id);
    }
    checkUsesAnswered(messages, i, opts, report);
  });
  return problems;
}

type Report = (code: PairingProblemCode, index: number, detail: string) => void;

/** Each tool_use in assistant message i has exactly one tool_result in message i + 1. */
function checkUsesAnswered(messages: readonly Message[], i: number, opts: PairingOptions, report: Report): void {
  const uses = blocksOf(messages[i]).filter((b) => b.type === "tool_use");
  if (uses.length === 0) return;
  const next = messages[i + 1];
  if (next === undefined && opts.allowPendingToolUse) return;
  const answers = next?.role === "user" ? blocksOf(next) : [];
  for (const use of uses) {
    const count = answers.filter((b) => b.type === "tool_result" && b.tool_use_id === use.id).length;
    if (count === 0) report("missing-tool-result", i, `tool_use ${use.id} has no tool_result in the next message`);
    if (count > 1) report("duplicate-tool-result", i + 1, `tool_use ${use.id} answered ${count} times`);
  }
}

/** Each tool_result in user message i answers a tool_use of message i - 1, and comes before any text. */
function checkResultsAnswerPrevious(messages: readonly Message[], i: number, report: Report): void {
  const blocks = blocksOf(messages[i]);
  const prev = messages[i - 1];
  const ids = new Set(prev?.role === "assistant" ? blocksOf(prev).flatMap((b) => (b.type === "tool_use" ? [b.id] : [])) : []);
  let sawOther = false;
  for (const b of blocks) {
    if (b.type !== "tool_result") {
      sawOther = true;
      continue;
    }
    if (!ids.has(b.tool_use_id))
      report("orphan-tool-result", i, `tool_result ${b.tool_use_id} answers no tool_use of the previous message`);
    if (sawOther) report("tool-result-after-text", i, `tool_result ${b.tool_use_id} comes after other content`);
  }
}

function blocksOf(message: Message | undefined): Exclude<Message["content"], string> {
  if (message === undefined || typeof message.content === "string") return [];
  return message.content;
}
