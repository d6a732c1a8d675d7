// node --test bench/corpus/   (small hand-written inputs only: no fetched data here)
import assert from "node:assert/strict";
import { test } from "node:test";
import { convert } from "./convert.mjs";

const jsonl = (rows) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
const shape = (messages) =>
  messages.map(
    (m) =>
      `${m.role[0]}:${m.content.map((b) => (b.type === "tool_use" ? `use(${b.id})` : b.type === "tool_result" ? `res(${b.tool_use_id}${b.is_error ? ",err" : ""})` : b.type)).join(",")}`,
  );

test("claude-code: main chain across a 1.0.x compaction, sidechains left out, one response per API id", () => {
  const a = (uuid, parent, id, content, extra = {}) => ({
    type: "assistant",
    uuid,
    parentUuid: parent,
    message: { id, role: "assistant", model: "m", content },
    ...extra,
  });
  const u = (uuid, parent, content, extra = {}) => ({
    type: "user",
    uuid,
    parentUuid: parent,
    message: { role: "user", content },
    ...extra,
  });
  const rows = [
    u("u1", null, "do it"),
    a("a1", "u1", "msg_1", [{ type: "text", text: "reading" }]),
    a("a2", "a1", "msg_1", [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "x" } }]),
    // Claude Code ran t1 while the response was still streaming: its result comes before t2.
    u("u2", "a2", [{ type: "tool_result", tool_use_id: "t1", content: "x body" }]),
    a("a3", "u2", "msg_1", [{ type: "tool_use", id: "t2", name: "Task", input: { prompt: "p" } }]),
    u("s1", null, "subagent prompt", { isSidechain: true }),
    a("s2", "s1", "msg_side", [{ type: "text", text: "sub" }], { isSidechain: true }),
    u("u3", "a3", [{ type: "tool_result", tool_use_id: "t2", content: "sub report" }]),
    u("c1", null, "This session is being continued...", { isCompactSummary: true }),
    a("a4", "c1", "msg_2", [{ type: "text", text: "done" }]),
    a("a5", "a4", "msg_3", [{ type: "text", text: "oops" }], {
      message: { id: "msg_3", role: "assistant", model: "<synthetic>", content: [{ type: "text", text: "x" }] },
    }),
  ];
  const { messages, notes } = convert("claude-code", [jsonl(rows)]);
  assert.deepEqual(shape(messages), ["u:text", "a:text,use(t1),use(t2)", "u:res(t1),res(t2)", "a:text"]);
  assert.equal(notes.modelCalls, 2);
  assert.equal(notes.dropped.compactionSummaries, 1);
  assert.equal(notes.dropped.sidechainApiResponses, 1);
  assert.equal(notes.dropped.syntheticAssistantEntries, 1);
  assert.equal(notes.fixes.interleavedBlocksRegrouped, 1);
});

test("pi: path from the leaf, tool results merged, compaction and failed empty responses dropped, masked escapes repaired", () => {
  const rows = [
    { type: "session", version: 3, id: "s" },
    { type: "model_change", id: "m0", parentId: null },
    { type: "message", id: "e1", parentId: "m0", message: { role: "user", content: [{ type: "text", text: "go" }] } },
    {
      type: "message",
      id: "e2",
      parentId: "e1",
      message: {
        role: "assistant",
        stopReason: "toolUse",
        content: [
          { type: "thinking", thinking: "hm", thinkingSignature: "" },
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } },
          { type: "toolCall", id: "c2", name: "read", arguments: { path: "a" } },
        ],
      },
    },
    {
      type: "message",
      id: "e3",
      parentId: "e2",
      message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "a b" }], isError: false },
    },
    {
      type: "message",
      id: "e4",
      parentId: "e3",
      message: { role: "toolResult", toolCallId: "c2", toolName: "read", content: [{ type: "text", text: "MASK" }], isError: true },
    },
    { type: "compaction", id: "k1", parentId: "e4", summary: "..." },
    { type: "message", id: "e5", parentId: "k1", message: { role: "assistant", stopReason: "error", content: [] } },
    { type: "message", id: "x9", parentId: "e1", message: { role: "assistant", content: [{ type: "text", text: "abandoned branch" }] } },
    { type: "custom_message", id: "e6", parentId: "e5", content: "<system-reminder>ctx</system-reminder>", display: false },
    {
      type: "message",
      id: "e7",
      parentId: "e6",
      message: { role: "assistant", stopReason: "stop", content: [{ type: "text", text: "ok" }] },
    },
  ];
  const text = jsonl(rows).replace('"MASK"', '"line\\***@***.***"');
  const { messages, notes } = convert("pi", [text]);
  assert.deepEqual(shape(messages), ["u:text", "a:thinking,use(c1),use(c2)", "u:res(c1),res(c2,err),text", "a:text"]);
  assert.equal(messages[2].content[1].content[0].text, "line\\***@***.***");
  assert.equal(notes.fixes.invalidEscapesRepaired, 1);
  assert.equal(notes.dropped.compactionSummaries, 1);
  assert.equal(notes.dropped.failedEmptyResponses, 1);
  assert.equal(notes.dropped.offPathEntries, 1);
});

test("gemini-cli-recording: a later record replaces an earlier one with the same id; UI records dropped", () => {
  const rows = [
    { sessionId: "s", projectHash: "h" },
    { id: "1", type: "user", content: [{ text: "fix the build" }] },
    { id: "2", type: "gemini", content: "", thoughts: [{ subject: "Look", description: "at it" }] },
    { $set: { lastUpdated: "t" } },
    {
      id: "2",
      type: "gemini",
      content: "",
      thoughts: [{ subject: "Look", description: "at it" }],
      toolCalls: [
        {
          id: "r1",
          name: "read_file",
          args: { file_path: "a" },
          status: "success",
          result: [{ functionResponse: { id: "r1", name: "read_file", response: { output: "body" } } }],
        },
      ],
    },
    { id: "3", type: "info", content: "Request cancelled." },
    { id: "4", type: "gemini", content: "Fixed." },
  ];
  const { messages, notes } = convert("gemini-cli-recording", [jsonl(rows)]);
  assert.deepEqual(shape(messages), ["u:text", "a:thinking,use(r1)", "u:res(r1)", "a:text"]);
  assert.equal(messages[1].content[0].thinking, "**Look** at it");
  assert.equal(messages[2].content[0].content, "body");
  assert.equal(notes.dropped.infoRecords, 1);
});

test("codex: one run of output items is one model call; outputs answer by call_id", () => {
  const ri = (payload) => ({ type: "response_item", payload });
  const rows = [
    { type: "session_meta", payload: { id: "s" } },
    ri({ type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions>" }] }),
    ri({ type: "message", role: "user", content: [{ type: "input_text", text: "build it" }] }),
    ri({ type: "reasoning", summary: [], encrypted_content: "gAAA" }),
    ri({ type: "function_call", name: "exec_command", arguments: '{"cmd":"ls"}', call_id: "c1" }),
    ri({ type: "function_call", name: "exec_command", arguments: '{"cmd":"pwd"}', call_id: "c2" }),
    { type: "event_msg", payload: { type: "token_count" } },
    ri({ type: "function_call_output", call_id: "c1", output: "a b" }),
    ri({ type: "function_call_output", call_id: "c2", output: [{ type: "input_text", text: "/w" }] }),
    ri({ type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch", call_id: "c3" }),
    ri({ type: "custom_tool_call_output", call_id: "c3", output: "Success." }),
    ri({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] }),
  ];
  const { messages, notes } = convert("codex", [jsonl(rows)]);
  assert.deepEqual(shape(messages), ["u:text,text", "a:use(c1),use(c2)", "u:res(c1),res(c2)", "a:use(c3)", "u:res(c3)", "a:text"]);
  assert.deepEqual(messages[3].content[0].input, { input: "*** Begin Patch" });
  assert.equal(notes.modelCalls, 3);
  assert.equal(notes.dropped.encryptedOnlyReasoningItems, 1);
});

test("finalize: unanswered calls get an error result, stray results become text, results come first", () => {
  const history = [
    { role: "user", content: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "t1", name: "read_file", input: {} },
        { type: "tool_use", id: "t2", name: "read_file", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "text", text: "[read_file for 'a'] Result:\nA" },
        { type: "text", text: "<environment_details>" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "" },
        { type: "tool_use", id: "t1", name: "read_file", input: {} },
      ],
    },
    { role: "user", content: [{ type: "text", text: "[read_file for 'b'] Result:\nB" }] },
  ];
  const { messages, notes } = convert("cline", [JSON.stringify(history)]);
  assert.deepEqual(shape(messages), ["u:text", "a:use(t1),use(t2)", "u:res(t1),res(t2,err),text", "a:use(t1~2)", "u:res(t1~2)"]);
  assert.equal(notes.fixes.missingResultsAdded, 1);
  assert.equal(notes.fixes.duplicateToolIdsRenamed, 1);
  assert.equal(notes.fixes.emptyTextBlocksDropped, 1);
});
