// Converts real agent sessions, in their own on-disk formats, to the bench's transcript format:
// one JSON object per line, {"role": "user" | "assistant", "content": [Anthropic content blocks]}
// (bench/src/context/transcript.ts). Plain Node 20, no dependencies: `convert(format, files)` is
// pure; fetch-corpus.mjs checks the result with @hatloop/context's validatePairing.
//
// What is kept: every message the agent sent to the model, in the original order — the user's
// words, injected context the agent did send (Claude Code's isMeta caveats, pi's custom messages,
// Gemini CLI's session context), assistant text, thinking as the agent stored it, tool calls with
// their real ids and inputs, tool results with their real outputs, images and is_error.
// What is dropped, and counted in the notes: entries the agent never sent to the model (UI
// notices, metadata, state snapshots, synthetic error replies, failed calls with no content,
// subagent sidechains, which only reach the main chain through their tool result), and the
// agent's own compaction summaries: the replay keeps the whole history those summaries replaced,
// and the strategies under test do their own compaction.
// What the formats force us to fix is done in finalize() and counted in notes.fixes.

export const FORMATS = {
  "claude-code": convertClaudeCode,
  "claude-code-flat": convertClaudeCodeFlat,
  pi: convertPi,
  "gemini-cli-history": convertGeminiHistory,
  "gemini-cli-recording": convertGeminiRecording,
  cline: convertCline,
  codex: convertCodex,
};

export class ConvertError extends Error {}

/**
 * @param {string} format one of FORMATS
 * @param {string[]} texts the raw files, as UTF-8 text, in the order sources.json lists them
 * @returns {{ messages: object[], notes: object }}
 */
export function convert(format, texts) {
  const fn = FORMATS[format];
  if (fn === undefined) throw new ConvertError(`unknown format ${JSON.stringify(format)}`);
  const notes = newNotes();
  const messages = finalize(fn(texts, notes), notes);
  notes.modelCalls = messages.filter((m) => m.role === "assistant").length;
  return { messages, notes };
}

/** The transcript as the bench reads it: one message per line, LF, trailing newline. */
export function serialize(messages) {
  return messages.map((m) => JSON.stringify(m)).join("\n") + "\n";
}

function newNotes() {
  return { dropped: {}, kept: {}, fixes: {}, modelCalls: 0 };
}

function bump(bucket, key, by = 1) {
  if (by !== 0) bucket[key] = (bucket[key] ?? 0) + by;
}

// ---------------------------------------------------------------------------------------------
// Content blocks: only the fields the Messages API takes are kept (Claude Code adds `caller`,
// Cline `reasoning_details`, and so on).

function textBlock(text) {
  return { type: "text", text };
}

function anthropicBlock(block, notes, where) {
  switch (block?.type) {
    case "text":
      return textBlock(String(block.text ?? ""));
    case "thinking":
      return { type: "thinking", thinking: String(block.thinking ?? ""), signature: String(block.signature ?? "") };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: String(block.data ?? "") };
    case "tool_use":
      return { type: "tool_use", id: String(block.id), name: String(block.name), input: block.input ?? {} };
    case "tool_result": {
      const out = { type: "tool_result", tool_use_id: String(block.tool_use_id), content: resultContent(block.content, notes, where) };
      if (block.is_error === true) out.is_error = true;
      return out;
    }
    case "image":
      bump(notes.kept, "images");
      return { type: "image", source: block.source };
    default:
      throw new ConvertError(`${where}: unsupported content block type ${JSON.stringify(block?.type)}`);
  }
}

function resultContent(content, notes, where) {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content.map((part) => {
    if (part?.type === "text") return textBlock(String(part.text ?? ""));
    if (part?.type === "image") {
      bump(notes.kept, "images");
      return { type: "image", source: part.source };
    }
    if (part?.type === "tool_reference") {
      // Claude Code's tool search answers with references the API expands into tool definitions
      // (they load tools, they are not message text); the transcript format has no such block.
      bump(notes.fixes, "toolReferencesToText");
      return textBlock(`[tool_reference: ${String(part.tool_name)}]`);
    }
    throw new ConvertError(`${where}: unsupported tool_result part ${JSON.stringify(part?.type)}`);
  });
}

// ---------------------------------------------------------------------------------------------
// JSONL reading. A line that is not JSON is an error, except the one repair pi-format files
// need (see repairEscapes).

function parseJsonl(text, notes, { repairEscapes = false } = {}) {
  const out = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (!repairEscapes) throw new ConvertError(`line ${i + 1}: invalid JSON (${error.message})`);
      // The publisher's PII masking replaced an e-mail-like match that began right after a
      // backslash (`\n` + `name@host` -> `\***@***.***`), leaving an escape JSON does not know.
      // The character it swallowed cannot be known; the backslash is kept as a literal one.
      const repaired = line.replace(/\\(?=[^"\\/bfnrtu])/g, "\\\\");
      try {
        value = JSON.parse(repaired);
      } catch {
        throw new ConvertError(`line ${i + 1}: invalid JSON (${error.message})`);
      }
      bump(notes.fixes, "invalidEscapesRepaired", (line.match(/\\(?=[^"\\/bfnrtu])/g) ?? []).length);
    }
    value.__index = out.length;
    out.push(value);
  });
  return out;
}

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConvertError(`${what}: invalid JSON (${error.message})`);
  }
}

// ---------------------------------------------------------------------------------------------
// Claude Code: ~/.claude/projects/<project>/<session>.jsonl. A graph: each entry names its
// parentUuid; one API response is written as one entry per content block, all with the same
// message.id; subagents (Task) write isSidechain entries (older versions, in the same file) or
// separate files (newer). Compaction starts a new root: a compact_boundary system entry whose
// logicalParentUuid links back (newer), or, in 1.0.x, a root user entry with isCompactSummary
// whose previous segment is simply the earlier part of the file.

function convertClaudeCode(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("claude-code takes one file (the main session)");
  const entries = parseJsonl(texts[0], notes);
  const byUuid = new Map();
  for (const e of entries) if (typeof e.uuid === "string") byUuid.set(e.uuid, e);
  const isMessage = (e) => (e.type === "user" || e.type === "assistant") && e.message !== undefined;
  const main = entries.filter((e) => isMessage(e) && e.isSidechain !== true);
  if (main.length === 0) throw new ConvertError("no main-chain messages");
  bump(
    notes.dropped,
    "sidechainApiResponses",
    distinct(entries.filter((e) => e.type === "assistant" && e.isSidechain === true).map((e) => e.message?.id)).length,
  );

  // Walk the main chain back from the last main-chain message.
  const chain = new Set();
  let cur = main[main.length - 1];
  while (cur !== undefined) {
    if (chain.has(cur)) throw new ConvertError(`parentUuid cycle at ${cur.uuid}`);
    chain.add(cur);
    let parent = cur.parentUuid ? byUuid.get(cur.parentUuid) : undefined;
    if (cur.parentUuid && parent === undefined) throw new ConvertError(`entry ${cur.uuid} names a missing parent ${cur.parentUuid}`);
    if (!cur.parentUuid && cur.logicalParentUuid) {
      parent = byUuid.get(cur.logicalParentUuid);
      bump(notes.kept, "compactedSegmentsJoined");
    } else if (!cur.parentUuid && cur.isCompactSummary === true) {
      const before = main.filter((e) => e.__index < cur.__index && !chain.has(e));
      parent = before[before.length - 1];
      if (parent !== undefined) bump(notes.kept, "compactedSegmentsJoined");
    }
    cur = parent;
  }
  // Parallel tool calls can leave an API response's other blocks, or a tool result, on a sibling
  // branch of the same turn: take them back when the chain holds their response or their call.
  const apiIds = new Set();
  const callIds = new Set();
  for (const e of chain) {
    if (e.type === "assistant") apiIds.add(e.message.id);
    for (const b of blocksOf(e.message)) if (b.type === "tool_use") callIds.add(b.id);
  }
  for (const e of main) {
    if (chain.has(e)) continue;
    const ofResponse = e.type === "assistant" && apiIds.has(e.message.id);
    const answersCall = e.type === "user" && blocksOf(e.message).some((b) => b.type === "tool_result" && callIds.has(b.tool_use_id));
    if (ofResponse || answersCall) {
      chain.add(e);
      bump(notes.fixes, "siblingEntriesRecovered");
    }
  }
  bump(notes.dropped, "offChainMessages", main.filter((e) => !chain.has(e)).length);

  // One API response is one assistant message even when Claude Code interleaved its blocks with
  // the results of its first calls (it runs tools while the response streams): later blocks of
  // the open response join its message, and the user entries in between gather in the user
  // message that follows it.
  const messages = [];
  let open = null; // { apiId, after: the user message following the open response, or null }
  for (const e of [...chain].sort((a, b) => a.__index - b.__index)) {
    if (e.type === "attachment") bump(notes.dropped, "attachmentEntries");
    if (!isMessage(e)) continue; // system, progress, attachment bookkeeping on the chain
    const where = `entry ${e.uuid}`;
    if (e.isVisibleInTranscriptOnly === true) {
      bump(notes.dropped, "transcriptOnlyEntries");
      continue;
    }
    if (e.type === "user" && e.isCompactSummary === true) {
      bump(notes.dropped, "compactionSummaries");
      continue;
    }
    if (e.type === "assistant") {
      if (e.message.model === "<synthetic>" || e.isApiErrorMessage === true) {
        bump(notes.dropped, "syntheticAssistantEntries");
        continue;
      }
      const blocks = blocksOf(e.message).map((b) => anthropicBlock(b, notes, where));
      if (open !== null && open.apiId === e.message.id) {
        open.message.content.push(...blocks);
        if (open.after !== null) bump(notes.fixes, "interleavedBlocksRegrouped");
      } else {
        const message = { role: "assistant", content: blocks, apiId: e.message.id };
        messages.push(message);
        open = { apiId: e.message.id, message, after: null };
      }
      continue;
    }
    if (e.isMeta === true) bump(notes.kept, "metaUserEntries");
    const content = e.message.content;
    const blocks = typeof content === "string" ? [textBlock(content)] : content.map((b) => anthropicBlock(b, notes, where));
    if (open !== null) {
      if (open.after === null) {
        open.after = { role: "user", content: [] };
        messages.push(open.after);
      }
      open.after.content.push(...blocks);
    } else {
      messages.push({ role: "user", content: blocks });
    }
  }
  notes.upstreamApiResponses = distinct(messages.filter((m) => m.role === "assistant").map((m) => m.apiId)).length;
  for (const m of messages) delete m.apiId;
  return messages;
}

function blocksOf(message) {
  const content = message?.content;
  return Array.isArray(content) ? content : [];
}

function distinct(values) {
  return [...new Set(values.filter((v) => v !== undefined))];
}

// A Claude Code session as a publisher flattened it: one line per stored entry,
// {timestamp, role, content, model?}, no uuids or message ids. Consecutive assistant lines are the
// blocks of one API response (Claude Code writes one line per block), so they become one message.

function convertClaudeCodeFlat(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("claude-code-flat takes one file");
  const messages = [];
  for (const e of parseJsonl(texts[0], notes)) {
    const where = `line ${e.__index + 1}`;
    if (e.role !== "user" && e.role !== "assistant") throw new ConvertError(`${where}: role ${JSON.stringify(e.role)}`);
    const content = e.content;
    const blocks = typeof content === "string" ? [textBlock(content)] : content.map((b) => anthropicBlock(b, notes, where));
    if (e.role === "assistant" && blocks.length === 0) bump(notes.dropped, "emptyAssistantEntries");
    const last = messages[messages.length - 1];
    if (e.role === "assistant" && last?.role === "assistant") last.content.push(...blocks);
    else messages.push({ role: e.role, content: blocks });
  }
  return messages;
}

// ---------------------------------------------------------------------------------------------
// pi-coding-agent session files (version 3; GJC "gajae-code" writes the same format): a tree of
// entries (id, parentId), the context being the path from the leaf to the root. Messages are
// user, assistant (text, thinking, toolCall) and toolResult; custom_message entries are
// extension messages that take part in the model's context; compaction entries are the agent's
// summaries; model_change, thinking_level_change, custom and label entries are metadata.

function convertPi(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("pi takes one file");
  const entries = parseJsonl(texts[0], notes, { repairEscapes: true });
  const byId = new Map();
  for (const e of entries) if (typeof e.id === "string" && e.type !== "session") byId.set(e.id, e);
  const candidates = entries.filter((e) => e.type === "message" || e.type === "custom_message");
  if (candidates.length === 0) throw new ConvertError("no messages");
  const path = [];
  const seen = new Set();
  for (let cur = candidates[candidates.length - 1]; cur !== undefined; cur = cur.parentId ? byId.get(cur.parentId) : undefined) {
    if (seen.has(cur)) throw new ConvertError(`parentId cycle at ${cur.id}`);
    seen.add(cur);
    path.push(cur);
    if (cur.parentId && !byId.has(cur.parentId)) {
      // The publisher cut the file out of a longer session: the path starts here.
      if (entries.some((e) => e !== cur && e.__index < cur.__index && e.type !== "session")) {
        throw new ConvertError(`entry ${cur.id} names a missing parent ${cur.parentId}`);
      }
      notes.excerptStartsMidSession = true;
    }
  }
  path.reverse();
  bump(notes.dropped, "offPathEntries", entries.filter((e) => e.type !== "session" && !seen.has(e)).length);

  const messages = [];
  for (const e of path) {
    const where = `entry ${e.id}`;
    switch (e.type) {
      case "message":
        break;
      case "custom_message": {
        bump(notes.kept, "customMessages");
        messages.push({ role: "user", content: piContent(e.content, notes, where) });
        continue;
      }
      case "branch_summary":
        // Summarises a branch that is not on this path, so nothing else carries it: keep it.
        bump(notes.kept, "branchSummaries");
        messages.push({ role: "user", content: [textBlock(String(e.summary ?? ""))] });
        continue;
      case "compaction":
        bump(notes.dropped, "compactionSummaries");
        continue;
      default:
        bump(notes.dropped, "metadataEntries");
        continue;
    }
    const m = e.message;
    if (e.evictedContent !== undefined) {
      // GJC replaced this content with a stub after compaction and kept the original in a store
      // that is not part of the published file: only the stub can be replayed.
      bump(notes.kept, "evictedStubs");
      for (const p of Object.values(e.evictedContent.payloads ?? {})) bump(notes.kept, "evictedChars", p.originalChars ?? 0);
    }
    if (m.role === "user") {
      messages.push({ role: "user", content: piContent(m.content, notes, where) });
    } else if (m.role === "assistant") {
      const blocks = [];
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (b.type === "text") blocks.push(textBlock(String(b.text ?? "")));
        else if (b.type === "thinking")
          blocks.push({ type: "thinking", thinking: String(b.thinking ?? ""), signature: String(b.thinkingSignature ?? "") });
        else if (b.type === "toolCall") blocks.push({ type: "tool_use", id: String(b.id), name: String(b.name), input: b.arguments ?? {} });
        else throw new ConvertError(`${where}: unsupported assistant block ${JSON.stringify(b.type)}`);
      }
      if ((m.stopReason === "error" || m.stopReason === "aborted") && blocks.length === 0) {
        // pi does not send failed, empty responses back to the model.
        bump(notes.dropped, "failedEmptyResponses");
        continue;
      }
      messages.push({ role: "assistant", content: blocks });
    } else if (m.role === "toolResult") {
      const out = { type: "tool_result", tool_use_id: String(m.toolCallId), content: piContent(m.content, notes, where) };
      if (m.isError === true) out.is_error = true;
      messages.push({ role: "user", content: [out] });
    } else {
      throw new ConvertError(`${where}: unsupported message role ${JSON.stringify(m.role)}`);
    }
  }
  return messages;
}

function piContent(content, notes, where) {
  if (typeof content === "string") return [textBlock(content)];
  if (!Array.isArray(content)) throw new ConvertError(`${where}: content is neither a string nor an array`);
  return content.map((b) => {
    if (b.type === "text") return textBlock(String(b.text ?? ""));
    if (b.type === "image") {
      bump(notes.kept, "images");
      return { type: "image", source: { type: "base64", media_type: String(b.mimeType ?? "image/png"), data: String(b.data ?? "") } };
    }
    throw new ConvertError(`${where}: unsupported content block ${JSON.stringify(b.type)}`);
  });
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI. Two formats:
// - its chat history as sent to the API (Content[]: role user/model, parts text, thought text,
//   functionCall, functionResponse, inlineData);
// - its chat recording (~/.gemini/tmp/<hash>/chats/session-*.jsonl): a header, then records
//   {id, type: user|gemini|info|error|warning, content, thoughts, toolCalls[{id, name, args,
//   result: Part[], status}]} appended as they change (a later record with the same id replaces
//   the earlier one), and {"$set": ...} metadata updates.

function geminiThought(text) {
  return { type: "thinking", thinking: text, signature: "" };
}

function functionResponseBlock(fr, isError) {
  const response = fr.response ?? {};
  const content = typeof response.output === "string" && Object.keys(response).length === 1 ? response.output : JSON.stringify(response);
  const out = { type: "tool_result", tool_use_id: String(fr.id), content };
  if (isError || response.error !== undefined) out.is_error = true;
  return out;
}

function inlineImage(part, notes) {
  bump(notes.kept, "images");
  return {
    type: "image",
    source: { type: "base64", media_type: String(part.inlineData.mimeType ?? "image/png"), data: String(part.inlineData.data ?? "") },
  };
}

function convertGeminiHistory(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("gemini-cli-history takes one file");
  const history = parseJson(texts[0], "history");
  if (!Array.isArray(history)) throw new ConvertError("history: expected an array of Content");
  const messages = [];
  history.forEach((content, i) => {
    const where = `content[${i}]`;
    const role = content.role === "model" ? "assistant" : content.role === "user" ? "user" : null;
    if (role === null) throw new ConvertError(`${where}: role ${JSON.stringify(content.role)}`);
    const blocks = [];
    (content.parts ?? []).forEach((part, k) => {
      if (part.functionCall !== undefined) {
        if (typeof part.functionCall.id !== "string") throw new ConvertError(`${where}.parts[${k}]: functionCall without an id`);
        blocks.push({
          type: "tool_use",
          id: part.functionCall.id,
          name: String(part.functionCall.name),
          input: part.functionCall.args ?? {},
        });
      } else if (part.functionResponse !== undefined) {
        if (typeof part.functionResponse.id !== "string") throw new ConvertError(`${where}.parts[${k}]: functionResponse without an id`);
        blocks.push(functionResponseBlock(part.functionResponse, false));
      } else if (typeof part.text === "string") {
        blocks.push(part.thought === true ? geminiThought(part.text) : textBlock(part.text));
      } else if (part.inlineData !== undefined) {
        blocks.push(inlineImage(part, notes));
      } else {
        throw new ConvertError(`${where}.parts[${k}]: unsupported part ${JSON.stringify(Object.keys(part))}`);
      }
    });
    messages.push({ role, content: blocks });
  });
  return messages;
}

function convertGeminiRecording(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("gemini-cli-recording takes one file");
  const records = new Map(); // id -> latest record, in order of first appearance
  for (const e of parseJsonl(texts[0], notes)) {
    if (e.$set !== undefined || e.sessionId !== undefined) continue; // metadata
    if (typeof e.id !== "string") throw new ConvertError(`line ${e.__index + 1}: record without an id`);
    if (records.has(e.id)) bump(notes.fixes, "recordUpdatesApplied");
    records.set(e.id, e);
  }
  const messages = [];
  for (const r of records.values()) {
    const where = `record ${r.id}`;
    if (r.type === "user") {
      messages.push({ role: "user", content: geminiParts(r.content, notes, where) });
    } else if (r.type === "gemini") {
      const blocks = [];
      for (const t of r.thoughts ?? []) blocks.push(geminiThought(`**${t.subject ?? ""}** ${t.description ?? ""}`.trim()));
      blocks.push(...geminiParts(r.content, notes, where));
      const results = [];
      for (const call of r.toolCalls ?? []) {
        blocks.push({ type: "tool_use", id: String(call.id), name: String(call.name), input: call.args ?? {} });
        const responses = (call.result ?? []).filter((p) => p.functionResponse !== undefined);
        if (responses.length === 0) continue; // finalize() answers it, and counts it
        for (const p of responses) results.push(functionResponseBlock({ ...p.functionResponse, id: call.id }, call.status === "error"));
        if (call.status === "cancelled") bump(notes.kept, "cancelledToolCalls");
      }
      messages.push({ role: "assistant", content: blocks });
      if (results.length > 0) messages.push({ role: "user", content: results });
    } else {
      bump(notes.dropped, `${r.type}Records`); // info, error, warning: shown to the user only
    }
  }
  return messages;
}

function geminiParts(content, notes, where) {
  if (typeof content === "string") return content === "" ? [] : [textBlock(content)];
  if (!Array.isArray(content)) throw new ConvertError(`${where}: content is neither a string nor an array`);
  return content.map((part) => {
    if (typeof part.text === "string") return part.thought === true ? geminiThought(part.text) : textBlock(part.text);
    if (part.inlineData !== undefined) return inlineImage(part, notes);
    if (part.functionResponse !== undefined) return functionResponseBlock(part.functionResponse, false);
    throw new ConvertError(`${where}: unsupported part ${JSON.stringify(Object.keys(part))}`);
  });
}

// ---------------------------------------------------------------------------------------------
// Cline: tasks/<id>/api_conversation_history.json, Anthropic messages. Its assistant messages
// carry native tool_use blocks, but it stores each result as a user text block
// "[<tool> for '<arg>'] Result:\n…" (and "[<tool>] Result:"), followed by its environment
// details; those texts answer the previous message's calls in order and become tool_result
// blocks with the calls' ids.

const CLINE_RESULT = /^\[([a-z_]+)(?: for [\s\S]*?)?\] Result:/;

function convertCline(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("cline takes one file");
  const history = parseJson(texts[0], "api_conversation_history");
  if (!Array.isArray(history)) throw new ConvertError("api_conversation_history: expected an array");
  const messages = [];
  history.forEach((m, i) => {
    const where = `message[${i}]`;
    const blocks = typeof m.content === "string" ? [textBlock(m.content)] : m.content.map((b) => anthropicBlock(b, notes, where));
    if (m.role === "assistant") {
      for (const b of blocks) if (b.type === "thinking" && b.thinking === "") bump(notes.kept, "emptyThinkingBlocks");
      messages.push({ role: "assistant", content: blocks });
      return;
    }
    const prev = messages[messages.length - 1];
    const calls = prev?.role === "assistant" ? prev.content.filter((b) => b.type === "tool_use") : [];
    const out = [];
    let next = 0;
    for (const b of blocks) {
      const match = b.type === "text" ? CLINE_RESULT.exec(b.text) : null;
      if (match !== null && next < calls.length && calls[next].name === match[1]) {
        out.push({ type: "tool_result", tool_use_id: calls[next].id, content: b.text });
        next += 1;
        bump(notes.fixes, "textResultsToToolResults");
      } else {
        out.push(b);
      }
    }
    messages.push({ role: "user", content: out });
  });
  return messages;
}

// ---------------------------------------------------------------------------------------------
// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): {timestamp, type, payload}
// lines. response_item payloads are the Responses API items the model saw or produced, in order:
// messages (user and developer input, assistant output), reasoning, function_call /
// custom_tool_call (apply_patch) and their *_output. One model call produces a run of items
// (reasoning, message, calls), so a run becomes one assistant message. event_msg lines repeat
// those items for the UI, turn_context and session_meta are settings; the base instructions in
// session_meta are the system prompt, which the bench models apart. A compacted line marks
// Codex's own compaction.

function convertCodex(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("codex takes one file");
  const messages = [];
  const push = (role, block) => {
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  for (const line of parseJsonl(texts[0], notes)) {
    const where = `line ${line.__index + 1}`;
    if (line.type === "compacted") {
      bump(notes.dropped, "compactionSummaries");
      continue;
    }
    if (line.type !== "response_item") {
      bump(notes.dropped, `${line.type ?? "untyped"}Lines`);
      continue;
    }
    const item = line.payload;
    switch (item.type) {
      case "message": {
        const role = item.role === "assistant" ? "assistant" : "user";
        if (item.role === "developer") bump(notes.kept, "developerMessages");
        for (const part of item.content ?? []) {
          if (part.type === "input_text" || part.type === "output_text") push(role, textBlock(String(part.text ?? "")));
          else if (part.type === "input_image") {
            bump(notes.kept, "images");
            const url = String(part.image_url ?? "");
            const m = /^data:([^;]+);base64,(.*)$/s.exec(url);
            push(role, { type: "image", source: m ? { type: "base64", media_type: m[1], data: m[2] } : { type: "url", url } });
          } else throw new ConvertError(`${where}: unsupported message part ${JSON.stringify(part.type)}`);
        }
        break;
      }
      case "reasoning": {
        // The model gets its encrypted reasoning back; only the summary is readable.
        const summary = (item.summary ?? []).map((s) => s.text ?? "").join("\n\n");
        if (summary !== "") push("assistant", { type: "thinking", thinking: summary, signature: "" });
        else bump(notes.dropped, "encryptedOnlyReasoningItems");
        break;
      }
      case "function_call": {
        let input;
        try {
          input = JSON.parse(item.arguments ?? "{}");
        } catch {
          input = { arguments: String(item.arguments) };
          bump(notes.fixes, "unparsableArgumentsWrapped");
        }
        push("assistant", { type: "tool_use", id: String(item.call_id), name: String(item.name), input });
        break;
      }
      case "custom_tool_call":
        // A freeform tool (apply_patch): its input is text, kept as {input}.
        push("assistant", {
          type: "tool_use",
          id: String(item.call_id),
          name: String(item.name),
          input: { input: String(item.input ?? "") },
        });
        break;
      case "local_shell_call":
        push("assistant", { type: "tool_use", id: String(item.call_id ?? item.id), name: "local_shell", input: item.action ?? {} });
        break;
      case "function_call_output":
      case "custom_tool_call_output":
      case "local_shell_call_output": {
        const output = item.output;
        const out = { type: "tool_result", tool_use_id: String(item.call_id), content: "" };
        if (typeof output === "string") out.content = output;
        else if (Array.isArray(output)) {
          // Newer Codex answers with content items (text and images).
          out.content = output.map((part) => {
            if (part?.type === "input_text" || part?.type === "output_text") return textBlock(String(part.text ?? ""));
            if (part?.type === "input_image") {
              bump(notes.kept, "images");
              const url = String(part.image_url ?? "");
              const m = /^data:([^;]+);base64,(.*)$/s.exec(url);
              return { type: "image", source: m ? { type: "base64", media_type: m[1], data: m[2] } : { type: "url", url } };
            }
            throw new ConvertError(`${where}: unsupported output item ${JSON.stringify(part?.type)}`);
          });
        } else if (output && typeof output === "object") {
          out.content = typeof output.content === "string" ? output.content : JSON.stringify(output);
          if (output.success === false) out.is_error = true;
        }
        push("user", out);
        break;
      }
      case "web_search_call":
        bump(notes.dropped, "webSearchCalls"); // run by the API itself, no result item follows
        break;
      default:
        throw new ConvertError(`${where}: unsupported response item ${JSON.stringify(item.type)}`);
    }
  }
  return messages;
}

// ---------------------------------------------------------------------------------------------
// What the Messages API requires and the source formats do not always give, repaired the same way
// for every format and counted in notes.fixes.

const NO_RESULT = "[no tool result was recorded for this call in the source session]";

function finalize(input, notes) {
  const fixes = notes.fixes;
  // 1. Empty text blocks (the API refuses them) and then empty messages.
  let messages = input.map((m) => ({
    role: m.role,
    content: m.content.filter((b) => {
      if (b.type === "text" && b.text.trim() === "") {
        bump(fixes, "emptyTextBlocksDropped");
        return false;
      }
      return true;
    }),
  }));
  messages = messages.filter((m) => {
    if (m.content.length > 0) return true;
    bump(fixes, m.role === "assistant" ? "emptyAssistantMessagesDropped" : "emptyUserMessagesDropped");
    return false;
  });

  // 2. Adjacent messages of one role become one (the API alternates roles).
  const merged = [];
  for (const m of messages) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.role === m.role) {
      last.content.push(...m.content);
      bump(fixes, m.role === "assistant" ? "adjacentAssistantMessagesMerged" : "adjacentUserMessagesMerged");
    } else {
      merged.push({ role: m.role, content: [...m.content] });
    }
  }
  messages = merged;

  // 3. A session that opens with the model speaking gets an explicit first user turn.
  if (messages[0]?.role === "assistant") {
    messages.unshift({ role: "user", content: [textBlock("[the source session starts with an assistant message]")] });
    bump(fixes, "openingUserTurnAdded");
  }

  // 4. Tool ids unique in the session (a later duplicate and its results get a suffix).
  const seenIds = new Set();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    const renamed = new Map();
    for (const b of m.content) {
      if (b.type !== "tool_use") continue;
      if (seenIds.has(b.id)) {
        let k = 2;
        while (seenIds.has(`${b.id}~${k}`)) k += 1;
        renamed.set(b.id, `${b.id}~${k}`);
        b.id = `${b.id}~${k}`;
        bump(fixes, "duplicateToolIdsRenamed");
      }
      seenIds.add(b.id);
    }
    const next = messages[i + 1];
    if (renamed.size > 0 && next?.role === "user") {
      for (const b of next.content) if (b.type === "tool_result" && renamed.has(b.tool_use_id)) b.tool_use_id = renamed.get(b.tool_use_id);
    }
  }

  // 5. Every tool_use answered exactly once in the next user message, results first; a result
  //    that answers no call of the previous message becomes text. The last message may be an
  //    assistant message with calls the session ended before answering: no request contains it.
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role !== "user") continue;
    const prev = messages[i - 1];
    const calls = prev?.role === "assistant" ? prev.content.filter((b) => b.type === "tool_use").map((b) => b.id) : [];
    const callSet = new Set(calls);
    const answered = new Set();
    const results = [];
    const others = [];
    for (const b of m.content) {
      if (b.type !== "tool_result") {
        others.push(b);
        continue;
      }
      if (!callSet.has(b.tool_use_id)) {
        others.push(textBlock(`[tool result for ${b.tool_use_id}]\n${resultText(b)}`));
        bump(fixes, "orphanResultsToText");
      } else if (answered.has(b.tool_use_id)) {
        bump(fixes, "duplicateResultsDropped");
      } else {
        answered.add(b.tool_use_id);
        results.push(b);
      }
    }
    for (const id of calls) {
      if (answered.has(id)) continue;
      results.push({ type: "tool_result", tool_use_id: id, content: NO_RESULT, is_error: true });
      bump(fixes, "missingResultsAdded");
    }
    const firstOther = m.content.findIndex((b) => b.type !== "tool_result");
    const lastResult = m.content.map((b) => b.type).lastIndexOf("tool_result");
    if (firstOther !== -1 && lastResult > firstOther) bump(fixes, "resultsMovedBeforeText");
    m.content = [...results, ...others];
  }
  // An assistant message with calls followed by another assistant message cannot happen after
  // step 2; one followed by nothing is the session's end.
  const last = messages[messages.length - 1];
  if (last?.role === "assistant" && last.content.some((b) => b.type === "tool_use")) notes.endsWithPendingToolUse = true;
  return messages;
}

function resultText(block) {
  if (typeof block.content === "string") return block.content;
  return block.content.map((p) => (p.type === "text" ? p.text : "[image]")).join("\n");
}
