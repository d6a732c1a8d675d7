// Converts real agent sessions, in their own on-disk formats, to the bench's transcript format:
// one JSON object per line, {"role": "user" | "assistant", "content": [Anthropic content blocks],
// "at": ISO-8601 UTC, when the raw file records it} (bench/src/context/transcript.ts). Plain Node
// 20, no dependencies: `convert(format, files)` is pure; fetch-corpus.mjs checks the result with
// @hatloop/context's validatePairing.
//
// Times: an assistant message gets the time its response was recorded (its first raw entry when
// several make one response), a user message the time of its first raw entry; merged messages
// keep the earliest. Each format's source of time is described at its converter.
//
// What is kept: every message the agent sent to the model, in the original order — the user's
// words, injected context the agent did send (Claude Code's isMeta caveats, pi's custom messages,
// Gemini CLI's session context), assistant text, thinking as the agent stored it, tool calls with
// their real ids and inputs, tool results with their real outputs, images and is_error.
// What is dropped, and counted in the notes: entries the agent never sent to the model (UI
// notices, metadata, state snapshots, synthetic error replies, failed calls with no content,
// subagent sidechains, which only reach the main chain through their tool result), and the
// agent's own compaction summaries: the replay keeps the whole history those summaries replaced,
// and the strategies under test do their own compaction. Those summaries are returned beside the
// transcript (`compactions`), as ground truth for a summary stand-in: where each one cut the
// history, its text and what the agent re-injected with it.
// What the formats force us to fix is done in finalize() and counted in notes.fixes.

export const FORMATS = {
  "claude-code": convertClaudeCode,
  "claude-code-flat": convertClaudeCodeFlat,
  pi: (texts, notes) => convertPi(texts, notes, "pi"),
  gjc: (texts, notes) => convertPi(texts, notes, "gjc"),
  "gemini-cli-history": convertGeminiHistory,
  "gemini-cli-recording": convertGeminiRecording,
  cline: convertCline,
  codex: convertCodex,
};

export class ConvertError extends Error {}

/**
 * @param {string} format one of FORMATS
 * @param {string[]} texts the raw files, as UTF-8 text, in the order sources.json lists them
 * @returns {{ messages: object[], notes: object, compactions: object[] }}
 */
export function convert(format, texts) {
  const fn = FORMATS[format];
  if (fn === undefined) throw new ConvertError(`unknown format ${JSON.stringify(format)}`);
  const notes = newNotes();
  const raw = fn(texts, notes);
  const compactions = raw.filter((m) => m.role === "compaction").map((m) => m.record);
  const { messages, trailing } = finalize(raw, notes);
  notes.modelCalls = messages.filter((m) => m.role === "assistant").length;
  // References into the transcript resolve only now, after finalize() dropped and merged messages.
  messages.forEach((m, i) => {
    for (const ref of m.refs) {
      ref.target[ref.field] = i;
      if (ref.splits) ref.target.splitsMessage = true;
    }
  });
  for (const ref of trailing) ref.target[ref.field] = messages.length;
  const out = messages.map(({ role, content, at }) =>
    at === undefined ? { role, content } : { role, content, at: new Date(at).toISOString() },
  );
  return { messages: out, notes, compactions };
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
// Times and compactions. Converters stamp messages with epoch ms (`at`, the earliest wins) and
// push a marker {role: "compaction", record} where the agent compacted; finalize() turns the
// marker into the record's beforeMessage. A record's other references into the transcript (a
// restored message's place) are `refs` on the message they point at.

function toMs(value) {
  const ms = typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

function stamp(message, value) {
  const ms = toMs(value);
  if (ms !== undefined && (message.at === undefined || ms < message.at)) message.at = ms;
  return message;
}

function isoOrNull(value) {
  const ms = toMs(value);
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** A compaction record; the fields set to null here are filled in by convert(). */
function compactionMarker(at, agent, summaryForm, summary, extra = {}) {
  const record = { beforeMessage: null, splitsMessage: false, at: isoOrNull(at), agent, summaryForm, summary, ...extra, restored: [] };
  return { role: "compaction", record };
}

/** One thing the agent re-injected with a summary; `message` is where the same text is in the transcript. */
function restoredItem(record, kind, path, chars, message) {
  const item = { kind, path, chars, message: null };
  record.restored.push(item);
  if (message !== undefined) refTo(message, item, "message");
}

function refTo(message, target, field) {
  (message.refs ??= []).push({ target, field, splits: false });
}

/** Characters of text a message's blocks carry (tool inputs as JSON, images none). */
function textChars(blocks) {
  let n = 0;
  for (const b of blocks) {
    if (b.type === "text") n += b.text.length;
    else if (b.type === "thinking") n += b.thinking.length;
    else if (b.type === "tool_use") n += JSON.stringify(b.input).length;
    else if (b.type === "tool_result") n += typeof b.content === "string" ? b.content.length : textChars(b.content);
  }
  return n;
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
  //
  // Times: every entry has a `timestamp` (when Claude Code wrote it); a response written as several
  // entries takes its first; meta entries give none (see below). A compaction is the summary
  // entry; what Claude Code wrote between it and the next response (meta user entries,
  // attachments) is what it re-injected with it.
  const messages = [];
  let open = null; // { apiId, after: the user message following the open response, or null }
  let compacted = null; // the record of a compaction not yet followed by a response
  for (const e of [...chain].sort((a, b) => a.__index - b.__index)) {
    if (e.type === "attachment") {
      bump(notes.dropped, "attachmentEntries");
      if (compacted !== null) {
        const a = e.attachment ?? {};
        restoredItem(
          compacted,
          `attachment:${String(a.type)}`,
          typeof a.filename === "string" ? a.filename : null,
          JSON.stringify(a).length,
        );
      }
    }
    if (!isMessage(e)) continue; // system, progress, attachment bookkeeping on the chain
    const where = `entry ${e.uuid}`;
    if (e.isVisibleInTranscriptOnly === true) {
      bump(notes.dropped, "transcriptOnlyEntries");
      continue;
    }
    if (e.type === "user" && e.isCompactSummary === true) {
      bump(notes.dropped, "compactionSummaries");
      const content = e.message.content;
      const summary =
        typeof content === "string"
          ? content
          : blocksOf(e.message)
              .map((b) => String(b.text ?? ""))
              .join("\n");
      const marker = compactionMarker(e.timestamp, "claude-code", "injected", summary);
      messages.push(marker);
      compacted = marker.record;
      open = null; // what follows belongs to a new request, not to the response before the summary
      continue;
    }
    if (e.type === "assistant") {
      if (e.message.model === "<synthetic>" || e.isApiErrorMessage === true) {
        bump(notes.dropped, "syntheticAssistantEntries");
        continue;
      }
      compacted = null;
      const blocks = blocksOf(e.message).map((b) => anthropicBlock(b, notes, where));
      if (open !== null && open.apiId === e.message.id) {
        open.message.content.push(...blocks);
        stamp(open.message, e.timestamp);
        if (open.after !== null) bump(notes.fixes, "interleavedBlocksRegrouped");
      } else {
        const message = stamp({ role: "assistant", content: blocks, apiId: e.message.id }, e.timestamp);
        messages.push(message);
        open = { apiId: e.message.id, message, after: null };
      }
      continue;
    }
    if (e.isMeta === true) bump(notes.kept, "metaUserEntries");
    const content = e.message.content;
    const blocks = typeof content === "string" ? [textBlock(content)] : content.map((b) => anthropicBlock(b, notes, where));
    let target;
    if (open !== null) {
      if (open.after === null) {
        open.after = { role: "user", content: [] };
        messages.push(open.after);
      }
      target = open.after;
      target.content.push(...blocks);
    } else {
      target = { role: "user", content: blocks };
      messages.push(target);
    }
    // A meta entry's timestamp can be stale: the local-command caveat carries the session's start.
    if (e.isMeta !== true) stamp(target, e.timestamp);
    if (compacted !== null && e.isMeta === true) restoredItem(compacted, "meta user message", null, textChars(blocks), target);
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
// blocks of one API response (Claude Code writes one line per block), so they become one message,
// timed by its first line. The publisher's file has no compaction.

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
    if (e.role === "assistant" && last?.role === "assistant") stamp(last, e.timestamp).content.push(...blocks);
    else messages.push(stamp({ role: e.role, content: blocks }, e.timestamp));
  }
  return messages;
}

// ---------------------------------------------------------------------------------------------
// pi-coding-agent session files (version 3; GJC "gajae-code" writes the same format): a tree of
// entries (id, parentId), the context being the path from the leaf to the root. Messages are
// user, assistant (text, thinking, toolCall) and toolResult; custom_message entries are
// extension messages that take part in the model's context; compaction entries are the agent's
// summaries; model_change, thinking_level_change, custom and label entries are metadata.
//
// Times: every entry has a `timestamp`, written when the entry was appended; for an assistant
// message that is when the response had arrived (its message.timestamp is when the request
// started). A compaction entry holds the summary and firstKeptEntryId: after it, pi sends the
// summary, then the path's messages from firstKeptEntryId up to the compaction (a kept tail), then
// what follows. pi wraps the summary as below (convertToLlm, pi-mono's coding-agent
// src/core/messages.ts); GJC renders it through a prompt template of its own version, which the
// file does not hold, so for GJC only the stored summary is given.

const PI_SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const PI_SUMMARY_SUFFIX = "\n</summary>";

function convertPi(texts, notes, agent) {
  if (texts.length !== 1) throw new ConvertError(`${agent} takes one file`);
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
  const produced = new Map(); // entry id -> the message it became
  path.forEach((e, i) => {
    if (e.type === "compaction") {
      bump(notes.dropped, "compactionSummaries");
      const summary = String(e.summary ?? "");
      const extra = { tokensBefore: e.tokensBefore ?? null, keptFromMessage: null };
      const marker =
        agent === "pi"
          ? compactionMarker(e.timestamp, agent, "injected", PI_SUMMARY_PREFIX + summary + PI_SUMMARY_SUFFIX, extra)
          : compactionMarker(e.timestamp, agent, "body", summary, extra);
      const from = path.findIndex((x) => x.id === e.firstKeptEntryId);
      const kept = from === -1 || from > i ? [] : path.slice(from, i).filter((x) => produced.has(x.id));
      if (kept.length > 0) refTo(produced.get(kept[0].id), marker.record, "keptFromMessage");
      for (const x of kept) {
        const m = produced.get(x.id);
        restoredItem(marker.record, `kept ${x.type === "message" ? x.message.role : x.type}`, null, textChars(m.content), m);
      }
      messages.push(marker);
      return;
    }
    const message = piMessage(e, notes);
    if (message === null) return;
    messages.push(stamp(message, e.timestamp));
    produced.set(e.id, message);
  });
  return messages;
}

/** The message a path entry became, or null when the model never saw it. */
function piMessage(e, notes) {
  const where = `entry ${e.id}`;
  switch (e.type) {
    case "message":
      break;
    case "custom_message":
      bump(notes.kept, "customMessages");
      return { role: "user", content: piContent(e.content, notes, where) };
    case "branch_summary":
      // Summarises a branch that is not on this path, so nothing else carries it: keep it.
      bump(notes.kept, "branchSummaries");
      return { role: "user", content: [textBlock(String(e.summary ?? ""))] };
    default:
      bump(notes.dropped, "metadataEntries");
      return null;
  }
  const m = e.message;
  if (e.evictedContent !== undefined) {
    // GJC replaced this content with a stub after compaction and kept the original in a store
    // that is not part of the published file: only the stub can be replayed.
    bump(notes.kept, "evictedStubs");
    for (const p of Object.values(e.evictedContent.payloads ?? {})) bump(notes.kept, "evictedChars", p.originalChars ?? 0);
  }
  if (m.role === "user") return { role: "user", content: piContent(m.content, notes, where) };
  if (m.role === "assistant") {
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
      return null;
    }
    return { role: "assistant", content: blocks };
  }
  if (m.role === "toolResult") {
    const out = { type: "tool_result", tool_use_id: String(m.toolCallId), content: piContent(m.content, notes, where) };
    if (m.isError === true) out.is_error = true;
    return { role: "user", content: [out] };
  }
  throw new ConvertError(`${where}: unsupported message role ${JSON.stringify(m.role)}`);
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
// Times: the history format has none. In the recording, a user or gemini record has a `timestamp`
// (a later version of a record keeps it), and each tool call one of its own: the results' user
// message takes the earliest of its calls'. Neither format records a compression.

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
      messages.push(stamp({ role: "user", content: geminiParts(r.content, notes, where) }, r.timestamp));
    } else if (r.type === "gemini") {
      const blocks = [];
      for (const t of r.thoughts ?? []) blocks.push(geminiThought(`**${t.subject ?? ""}** ${t.description ?? ""}`.trim()));
      blocks.push(...geminiParts(r.content, notes, where));
      const results = { role: "user", content: [] };
      for (const call of r.toolCalls ?? []) {
        blocks.push({ type: "tool_use", id: String(call.id), name: String(call.name), input: call.args ?? {} });
        const responses = (call.result ?? []).filter((p) => p.functionResponse !== undefined);
        if (responses.length === 0) continue; // finalize() answers it, and counts it
        for (const p of responses)
          results.content.push(functionResponseBlock({ ...p.functionResponse, id: call.id }, call.status === "error"));
        stamp(results, call.timestamp);
        if (call.status === "cancelled") bump(notes.kept, "cancelledToolCalls");
      }
      messages.push(stamp({ role: "assistant", content: blocks }, r.timestamp));
      if (results.content.length > 0) messages.push(results);
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
// Times: the history has none. The task's ui_messages.json, when given as a second file, has:
// Cline stamps each UI message (`ts`, epoch ms) with conversationHistoryIndex, the history's
// length - 1 when it was said. A request's api_req_started is said just before its user message
// k is appended (index k - 1), and the response's streamed parts while the history ends at that
// message (index k). So user message i takes the ts of the one api_req_started at index i - 1,
// assistant message i the earliest ts at index i - 1; a message without such an exact match has
// no time.

const CLINE_RESULT = /^\[([a-z_]+)(?: for [\s\S]*?)?\] Result:/;

function convertCline(texts, notes) {
  if (texts.length !== 1 && texts.length !== 2) throw new ConvertError("cline takes api_conversation_history.json [and ui_messages.json]");
  const history = parseJson(texts[0], "api_conversation_history");
  if (!Array.isArray(history)) throw new ConvertError("api_conversation_history: expected an array");
  const times = texts.length === 2 ? clineTimes(parseJson(texts[1], "ui_messages"), history) : [];
  const messages = [];
  history.forEach((m, i) => {
    const where = `message[${i}]`;
    const blocks = typeof m.content === "string" ? [textBlock(m.content)] : m.content.map((b) => anthropicBlock(b, notes, where));
    if (m.role === "assistant") {
      for (const b of blocks) if (b.type === "thinking" && b.thinking === "") bump(notes.kept, "emptyThinkingBlocks");
      messages.push(stamp({ role: "assistant", content: blocks }, times[i]));
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
    messages.push(stamp({ role: "user", content: out }, times[i]));
  });
  return messages;
}

/** The time of each history message from Cline's UI messages (see above); undefined where none. */
function clineTimes(ui, history) {
  if (!Array.isArray(ui)) throw new ConvertError("ui_messages: expected an array");
  const requests = new Map(); // index -> ts of each api_req_started at that index
  const earliest = new Map(); // index -> earliest ts of any UI message at that index
  for (const u of ui) {
    const k = u?.conversationHistoryIndex;
    if (!Number.isInteger(k) || typeof u.ts !== "number") continue;
    if (u.say === "api_req_started") requests.set(k, [...(requests.get(k) ?? []), u.ts]);
    const t = earliest.get(k);
    if (t === undefined || u.ts < t) earliest.set(k, u.ts);
  }
  const requestAt = (i) => {
    const starts = requests.get(i - 1) ?? [];
    return starts.length === 1 ? starts[0] : undefined;
  };
  return history.map((m, i) => {
    if (m.role !== "assistant") return requestAt(i);
    // Only when the request before it matched does everything said at its index belong to it.
    return requestAt(i - 1) === undefined ? undefined : earliest.get(i - 1);
  });
}

// ---------------------------------------------------------------------------------------------
// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): {timestamp, type, payload}
// lines. response_item payloads are the Responses API items the model saw or produced, in order:
// messages (user and developer input, assistant output), reasoning, function_call /
// custom_tool_call (apply_patch) and their *_output. One model call produces a run of items
// (reasoning, message, calls), so a run becomes one assistant message. event_msg lines repeat
// those items for the UI, turn_context and session_meta are settings; the base instructions in
// session_meta are the system prompt, which the bench models apart.
// Times: every line has a `timestamp`; a message takes that of its first item, an assistant
// message counting the encrypted reasoning that opened its run though it is dropped.
// A compacted line marks Codex's own compaction: its replacement_history is the whole history
// the model gets from then on, the summary being a `compaction` item whose content is encrypted
// (older rollouts carry a readable summary in `message` instead); the other items are copies of
// earlier ones (the user's messages, the first developer message and environment context).

function convertCodex(texts, notes) {
  if (texts.length !== 1) throw new ConvertError("codex takes one file");
  const messages = [];
  let at;
  let reasoningAt; // the time of dropped reasoning that opens the next assistant message
  const push = (role, block) => {
    const last = messages[messages.length - 1];
    if (last?.role === role) stamp(last, at).content.push(block);
    else messages.push(stamp({ role, content: [block] }, at));
    if (role === "assistant") stamp(messages[messages.length - 1], reasoningAt);
    reasoningAt = undefined;
  };
  const inputs = new Map(); // an input message item, as JSON -> the message it first went into
  for (const line of parseJsonl(texts[0], notes)) {
    const where = `line ${line.__index + 1}`;
    at = line.timestamp;
    if (line.type === "compacted") {
      bump(notes.dropped, "compactionSummaries");
      messages.push(codexCompaction(line, inputs));
      reasoningAt = undefined;
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
        const key = JSON.stringify([item.role, item.content]);
        if (role === "user" && (item.content ?? []).length > 0 && !inputs.has(key)) inputs.set(key, messages[messages.length - 1]);
        break;
      }
      case "reasoning": {
        // The model gets its encrypted reasoning back; only the summary is readable.
        const summary = (item.summary ?? []).map((s) => s.text ?? "").join("\n\n");
        if (summary !== "") push("assistant", { type: "thinking", thinking: summary, signature: "" });
        else {
          bump(notes.dropped, "encryptedOnlyReasoningItems");
          reasoningAt ??= at;
        }
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

function codexCompaction(line, inputs) {
  const p = line.payload ?? {};
  const history = Array.isArray(p.replacement_history) ? p.replacement_history : [];
  const sealed = history.filter((x) => x?.type === "compaction");
  const readable = typeof p.message === "string" && p.message !== "" ? p.message : null;
  const marker = compactionMarker(line.timestamp, "codex", sealed.length > 0 ? "encrypted" : "body", readable, {
    encryptedChars: sealed.reduce((n, x) => n + String(x.encrypted_content ?? "").length, 0),
  });
  for (const x of history) {
    if (x?.type === "compaction") continue;
    if (x?.type === "message") {
      const chars = (x.content ?? []).reduce((n, part) => n + String(part.text ?? "").length, 0);
      restoredItem(marker.record, `${x.role} message`, null, chars, inputs.get(JSON.stringify([x.role, x.content])));
    } else {
      restoredItem(marker.record, String(x?.type), null, JSON.stringify(x).length);
    }
  }
  return marker;
}

// ---------------------------------------------------------------------------------------------
// What the Messages API requires and the source formats do not always give, repaired the same way
// for every format and counted in notes.fixes.

const NO_RESULT = "[no tool result was recorded for this call in the source session]";

function finalize(input, notes) {
  const fixes = notes.fixes;
  // 1. Empty text blocks (the API refuses them) and then empty messages. A compaction marker, or
  //    a dropped message, hands its compaction boundary on to the next message.
  let messages = [];
  let carry = [];
  for (const m of input) {
    if (m.role === "compaction") {
      carry.push({ target: m.record, field: "beforeMessage", splits: false });
      continue;
    }
    const content = m.content.filter((b) => {
      if (b.type === "text" && b.text.trim() === "") {
        bump(fixes, "emptyTextBlocksDropped");
        return false;
      }
      return true;
    });
    if (content.length === 0) {
      bump(fixes, m.role === "assistant" ? "emptyAssistantMessagesDropped" : "emptyUserMessagesDropped");
      carry.push(...(m.refs ?? []).filter((r) => r.field === "beforeMessage"));
      continue;
    }
    messages.push({ role: m.role, content, at: m.at, refs: [...carry, ...(m.refs ?? [])] });
    carry = [];
  }

  // 2. Adjacent messages of one role become one (the API alternates roles), with the earliest
  //    time. A compaction boundary merged into the message before it now splits that message.
  const merged = [];
  for (const m of messages) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.role === m.role) {
      last.content.push(...m.content);
      stamp(last, m.at);
      for (const r of m.refs) last.refs.push(r.field === "beforeMessage" ? { ...r, splits: true } : r);
      bump(fixes, m.role === "assistant" ? "adjacentAssistantMessagesMerged" : "adjacentUserMessagesMerged");
    } else {
      merged.push({ role: m.role, content: [...m.content], at: m.at, refs: [...m.refs] });
    }
  }
  messages = merged;

  // 3. A session that opens with the model speaking gets an explicit first user turn.
  if (messages[0]?.role === "assistant") {
    messages.unshift({
      role: "user",
      content: [textBlock("[the source session starts with an assistant message]")],
      at: undefined,
      refs: [],
    });
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
  return { messages, trailing: carry };
}

function resultText(block) {
  if (typeof block.content === "string") return block.content;
  return block.content.map((p) => (p.type === "text" ? p.text : "[image]")).join("\n");
}
