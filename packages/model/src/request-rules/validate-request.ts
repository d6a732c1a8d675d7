import { maxOutputTokensOf } from "../pricing.js";

// The Messages API's documented rules for a request, checked the way the API checks them, with the
// API's own wording: the fake server answers a broken request with the 400 the real one would give,
// and the scripted model refuses it the same way, so no test of ours can pass on a request the real
// API rejects. Consecutive messages of one role are allowed (the API combines them into one turn),
// so the pairing rules apply to the combined turns.

export interface WireRequest {
  model?: unknown;
  max_tokens?: unknown;
  system?: unknown;
  messages?: unknown;
  tools?: unknown;
}

export interface RuleOptions {
  /** Thinking the server issued, by signature: a thinking block must come back byte for byte. */
  issuedThinking?: ReadonlyMap<string, string>;
  /** count_tokens requests carry no max_tokens. */
  countOnly?: boolean;
}

type Block = Record<string, unknown> & { type?: unknown };
type Turn = { role: string; blocks: Array<{ block: Block; at: string }>; index: number };

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const MAX_BREAKPOINTS = 4;

/** Every rule the request breaks, in the API's words; empty when the API would accept it. */
export function requestProblems(request: WireRequest, options: RuleOptions = {}): string[] {
  const problems: string[] = [];
  const model = typeof request.model === "string" ? request.model : "";
  if (!model) problems.push("model: Field required");
  if (!options.countOnly) checkMaxTokens(request.max_tokens, model, problems);
  const system = typeof request.system === "string" ? [] : asBlocks(request.system);
  system.forEach((b, i) => checkText(b, `system.${i}`, problems));
  const tools = Array.isArray(request.tools) ? (request.tools as Block[]) : [];
  checkTools(tools, problems);
  const messages = Array.isArray(request.messages) ? (request.messages as Array<{ role?: unknown; content?: unknown }>) : [];
  if (messages.length === 0) problems.push("messages: at least one message is required");
  const turns = combine(messages, problems);
  checkTurns(turns, tools.length > 0, options, problems);
  const breakpoints = [...system, ...tools, ...turns.flatMap((t) => t.blocks.map((b) => b.block))].filter(
    (b) => b.cache_control !== undefined,
  ).length;
  if (breakpoints > MAX_BREAKPOINTS)
    problems.push(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`);
  return problems;
}

function checkMaxTokens(value: unknown, model: string, problems: string[]): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    problems.push("max_tokens: Input should be a valid integer greater than or equal to 1");
    return;
  }
  const max = maxOutputTokensOf(model);
  if (value > max) problems.push(`max_tokens: ${value} > ${max}, which is the maximum allowed number of output tokens for ${model}`);
}

function checkTools(tools: Block[], problems: string[]): void {
  const names = new Set<string>();
  tools.forEach((tool, i) => {
    const name = typeof tool.name === "string" ? tool.name : "";
    if (!TOOL_NAME.test(name)) problems.push(`tools.${i}.custom.name: String should match pattern '${TOOL_NAME.source}'`);
    if (names.has(name)) problems.push("tools: Tool names must be unique.");
    names.add(name);
    const schema = tool.input_schema as { type?: unknown } | undefined;
    if (schema?.type !== "object") problems.push(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
  });
}

/** Consecutive messages of one role become one turn, as the API combines them. */
function combine(messages: Array<{ role?: unknown; content?: unknown }>, problems: string[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, i) => {
    const role = message.role;
    if (role !== "user" && role !== "assistant") {
      problems.push(`messages.${i}.role: Input should be 'user' or 'assistant'`);
      return;
    }
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : asBlocks(message.content);
    if (blocks.length === 0 && i < messages.length - 1)
      problems.push(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    const located = blocks.map((block, j) => ({ block, at: `messages.${i}.content.${j}` }));
    const last = turns.at(-1);
    if (last?.role === role) last.blocks.push(...located);
    else turns.push({ role, blocks: located, index: i });
  });
  return turns;
}

function checkTurns(turns: Turn[], hasTools: boolean, options: RuleOptions, problems: string[]): void {
  if (turns[0] && turns[0].role !== "user") problems.push('messages: first message must use the "user" role');
  const ids = new Set<string>();
  let usesTools = false;
  turns.forEach((turn, t) => {
    for (const { block, at } of turn.blocks) {
      if (block.type === "text") checkText(block, at, problems);
      if (block.type === "thinking") checkThinking(block, at, options, problems);
      if (block.type === "tool_use" || block.type === "tool_result") usesTools = true;
      if (block.type === "tool_use") {
        const id = String(block.id);
        if (ids.has(id)) problems.push(`${at}: \`tool_use\` ids must be unique`);
        ids.add(id);
      }
    }
    if (turn.role === "assistant") checkAnswered(turn, turns[t + 1], t === turns.length - 1, problems);
    else checkResults(turn, turns[t - 1], problems);
  });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
  if (usesTools && !hasTools) problems.push("messages: Requests which include `tool_use` or `tool_result` blocks must define tools.");
}

function checkText(block: Block, at: string, problems: string[]): void {
  const text = typeof block.text === "string" ? block.text : "";
  if (text === "")
    problems.push(
      block.cache_control
        ? `${at}.text: cache_control cannot be set for empty text blocks`
        : "messages: text content blocks must be non-empty",
    );
  else if (text.trim() === "") problems.push("messages: text content blocks must contain non-whitespace text");
}

function checkThinking(block: Block, at: string, options: RuleOptions, problems: string[]): void {
  const issued = options.issuedThinking?.get(String(block.signature));
  if (options.issuedThinking && issued !== block.thinking) problems.push(`${at}: Invalid \`signature\` in \`thinking\` block`);
}

/** Every tool_use of an assistant turn is answered by a tool_result at the start of the next turn. */
function checkAnswered(turn: Turn, next: Turn | undefined, final: boolean, problems: string[]): void {
  const uses = turn.blocks.filter((b) => b.block.type === "tool_use").map((b) => String(b.block.id));
  if (uses.length === 0 || (final && next === undefined)) return;
  const leading = new Set<string>();
  for (const { block } of next?.blocks ?? []) {
    if (block.type !== "tool_result") break;
    leading.add(String(block.tool_use_id));
  }
  const missing = uses.filter((id) => !leading.has(id));
  if (missing.length) {
    problems.push(
      `messages.${turn.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
  }
}

function checkResults(turn: Turn, previous: Turn | undefined, problems: string[]): void {
  const uses = new Set(previous?.blocks.filter((b) => b.block.type === "tool_use").map((b) => String(b.block.id)) ?? []);
  const answered = new Set<string>();
  for (const { block, at } of turn.blocks) {
    if (block.type !== "tool_result") continue;
    const id = String(block.tool_use_id);
    if (!uses.has(id) || answered.has(id)) {
      problems.push(
        `${at}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    answered.add(id);
    if (Array.isArray(block.content))
      (block.content as Block[]).forEach((c, k) => c.type === "text" && checkText(c, `${at}.content.${k}`, problems));
  }
}

function asBlocks(value: unknown): Block[] {
  return Array.isArray(value) ? (value as Block[]) : [];
}
