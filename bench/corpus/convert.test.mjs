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

/** A Claude Code user entry. */
const u = (uuid, parent, content, extra = {}) => ({
  type: "user",
  uuid,
  parentUuid: parent,
  message: { role: "user", content },
  ...extra,
});

test("claude-code: main chain across a 1.0.x compaction, sidechains left out, one response per API id", () => {
  const a = (uuid, parent, id, content, extra = {}) => ({
    type: "assistant",
    uuid,
    parentUuid: parent,
    message: { id, role: "assistant", model: "m", content },
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

// Times and the agents' own compactions.

const T = (s) => `2025-01-01T00:00:${String(s).padStart(2, "0")}.000Z`;
const ats = (messages) => messages.map((m) => m.at ?? null);

test("claude-code: times from entries (a response's first, meta entries none); a compaction with what was re-injected", () => {
  const a = (uuid, parent, id, content, ts) => ({
    type: "assistant",
    uuid,
    parentUuid: parent,
    timestamp: ts,
    message: { id, role: "assistant", model: "m", content },
  });
  const rows = [
    u("u1", null, "go", { timestamp: T(1) }),
    a("a1", "u1", "msg_1", [{ type: "text", text: "reading" }], T(3)),
    a("a2", "a1", "msg_1", [{ type: "tool_use", id: "t1", name: "Read", input: {} }], T(5)),
    u("u2", "a2", [{ type: "tool_result", tool_use_id: "t1", content: "x" }], { timestamp: T(6) }),
    u("c1", null, "This session is being continued... summary", { isCompactSummary: true, timestamp: T(20) }),
    u("m1", "c1", "re-read file body", { isMeta: true, timestamp: T(0) }),
    {
      type: "attachment",
      uuid: "f1",
      parentUuid: "m1",
      timestamp: T(21),
      attachment: { type: "file", filename: "/w/a.c", content: "abc" },
    },
    a("a3", "f1", "msg_2", [{ type: "text", text: "done" }], T(25)),
  ];
  const { messages, compactions } = convert("claude-code", [jsonl(rows)]);
  assert.deepEqual(shape(messages), ["u:text", "a:text,use(t1)", "u:res(t1),text", "a:text"]);
  assert.deepEqual(ats(messages), [T(1), T(3), T(6), T(25)]);
  assert.deepEqual(compactions, [
    {
      beforeMessage: 2,
      splitsMessage: true, // the meta entry after the summary joined the results before it
      at: T(20),
      agent: "claude-code",
      summaryForm: "injected",
      summary: "This session is being continued... summary",
      restored: [
        { kind: "meta user message", path: null, chars: 17, message: 2 },
        { kind: "attachment:file", path: "/w/a.c", chars: 51, message: null },
      ],
    },
  ]);
});

test("claude-code-flat: consecutive assistant lines are one message timed by its first line", () => {
  const rows = [
    { timestamp: T(1), role: "user", content: "go" },
    { timestamp: T(4), role: "assistant", content: [{ type: "text", text: "a" }] },
    { timestamp: T(5), role: "assistant", content: [] },
    { timestamp: T(7), role: "user", content: "more" },
  ];
  const { messages, compactions } = convert("claude-code-flat", [jsonl(rows)]);
  assert.deepEqual(ats(messages), [T(1), T(4), T(7)]);
  assert.deepEqual(compactions, []);
});

const piRows = () => [
  { type: "session", version: 3, id: "s" },
  { type: "message", id: "e1", parentId: null, timestamp: T(1), message: { role: "user", content: [{ type: "text", text: "go" }] } },
  {
    type: "message",
    id: "e2",
    parentId: "e1",
    timestamp: T(9),
    message: {
      role: "assistant",
      timestamp: Date.parse(T(2)),
      content: [
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
        { type: "toolCall", id: "c2", name: "read", arguments: { path: "b" } },
      ],
    },
  },
  {
    type: "message",
    id: "e3",
    parentId: "e2",
    timestamp: T(11),
    message: { role: "toolResult", toolCallId: "c1", content: [{ type: "text", text: "A" }] },
  },
  {
    type: "message",
    id: "e4",
    parentId: "e3",
    timestamp: T(10),
    message: { role: "toolResult", toolCallId: "c2", content: [{ type: "text", text: "BB" }] },
  },
  {
    type: "message",
    id: "e5",
    parentId: "e4",
    timestamp: T(12),
    message: { role: "assistant", content: [{ type: "text", text: "read both" }] },
  },
  { type: "compaction", id: "k1", parentId: "e5", timestamp: T(30), summary: "S", firstKeptEntryId: "e3", tokensBefore: 1234 },
  { type: "message", id: "e6", parentId: "k1", timestamp: T(31), message: { role: "assistant", stopReason: "error", content: [] } },
  { type: "message", id: "e7", parentId: "e6", timestamp: T(32), message: { role: "user", content: [{ type: "text", text: "next" }] } },
  { type: "message", id: "e8", parentId: "e7", timestamp: T(35), message: { role: "assistant", content: [{ type: "text", text: "ok" }] } },
];

test("pi: entry times (merged results keep the earliest); the summary as pi sends it and the kept tail", () => {
  const { messages, compactions } = convert("pi", [jsonl(piRows())]);
  assert.deepEqual(shape(messages), ["u:text", "a:use(c1),use(c2)", "u:res(c1),res(c2)", "a:text", "u:text", "a:text"]);
  assert.deepEqual(ats(messages), [T(1), T(9), T(10), T(12), T(32), T(35)]);
  assert.deepEqual(compactions, [
    {
      beforeMessage: 4, // the failed empty response right after the compaction is dropped
      splitsMessage: false,
      at: T(30),
      agent: "pi",
      summaryForm: "injected",
      summary: "The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>",
      tokensBefore: 1234,
      keptFromMessage: 2,
      restored: [
        { kind: "kept toolResult", path: null, chars: 1, message: 2 },
        { kind: "kept toolResult", path: null, chars: 2, message: 2 },
        { kind: "kept assistant", path: null, chars: 9, message: 3 },
      ],
    },
  ]);
});

test("gjc: the stored summary body; a boundary inside a merged message is flagged", () => {
  // GJC compacted before answering a prompt it did not record: two responses meet across it.
  const rows = piRows().filter((r) => r.id !== "e6" && r.id !== "e7");
  rows.find((r) => r.id === "e8").parentId = "k1";
  const { messages, compactions } = convert("gjc", [jsonl(rows)]);
  assert.deepEqual(shape(messages), ["u:text", "a:use(c1),use(c2)", "u:res(c1),res(c2)", "a:text,text"]);
  assert.equal(messages[3].at, T(12));
  const [c] = compactions;
  assert.deepEqual([c.beforeMessage, c.splitsMessage, c.agent, c.summaryForm, c.summary], [3, true, "gjc", "body", "S"]);
});

test("codex: line times; an encrypted compaction whose replacement history copies earlier inputs", () => {
  const ri = (ts, payload) => ({ timestamp: T(ts), type: "response_item", payload });
  const ask = { type: "message", role: "user", content: [{ type: "input_text", text: "build it" }] };
  const rows = [
    ri(1, { type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions>" }] }),
    ri(2, ask),
    ri(5, { type: "reasoning", summary: [], encrypted_content: "gAAA" }),
    ri(6, { type: "function_call", name: "exec", arguments: "{}", call_id: "c1" }),
    ri(8, { type: "function_call_output", call_id: "c1", output: "ok" }),
    {
      timestamp: T(20),
      type: "compacted",
      payload: { message: "", replacement_history: [ask, { type: "compaction", encrypted_content: "sealed!" }] },
    },
    ri(25, { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] }),
  ];
  const { messages, compactions } = convert("codex", [jsonl(rows)]);
  assert.deepEqual(ats(messages), [T(1), T(5), T(8), T(25)]);
  assert.deepEqual(compactions, [
    {
      beforeMessage: 3,
      splitsMessage: false,
      at: T(20),
      agent: "codex",
      summaryForm: "encrypted",
      summary: null,
      encryptedChars: 7,
      restored: [{ kind: "user message", path: null, chars: 8, message: 0 }],
    },
  ]);
  // A compaction with nothing after it stands before the end.
  assert.equal(convert("codex", [jsonl(rows.slice(0, -1))]).compactions[0].beforeMessage, 3);
});

test("gemini-cli-recording: record times; the results message takes its calls' earliest", () => {
  const rows = [
    { id: "1", timestamp: T(1), type: "user", content: [{ text: "fix" }] },
    {
      id: "2",
      timestamp: T(3),
      type: "gemini",
      content: "",
      toolCalls: [
        {
          id: "r1",
          name: "a",
          args: {},
          timestamp: T(6),
          result: [{ functionResponse: { id: "r1", name: "a", response: { output: "x" } } }],
        },
        {
          id: "r2",
          name: "b",
          args: {},
          timestamp: T(5),
          result: [{ functionResponse: { id: "r2", name: "b", response: { output: "y" } } }],
        },
      ],
    },
    { id: "3", timestamp: T(9), type: "gemini", content: "Fixed." },
  ];
  assert.deepEqual(ats(convert("gemini-cli-recording", [jsonl(rows)]).messages), [T(1), T(3), T(5), T(9)]);
  const history = [{ role: "user", parts: [{ text: "hi" }] }];
  assert.deepEqual(ats(convert("gemini-cli-history", [JSON.stringify(history)]).messages), [null]);
});

test("cline: times from ui_messages by conversationHistoryIndex, only where the match is exact", () => {
  const history = [
    { role: "user", content: [{ type: "text", text: "<task>go</task>" }] },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: {} }] },
    { role: "user", content: [{ type: "text", text: "[read_file for 'a'] Result:\nA" }] },
    { role: "assistant", content: [{ type: "text", text: "done" }] },
  ];
  const say = (ts, k, what) => ({ ts: Date.parse(T(ts)), type: "say", say: what, conversationHistoryIndex: k });
  const ui = [
    say(1, -1, "text"),
    say(2, -1, "api_req_started"),
    say(4, 0, "reasoning"),
    say(5, 0, "tool"),
    say(7, 1, "api_req_started"),
    say(9, 2, "text"),
  ];
  assert.deepEqual(ats(convert("cline", [JSON.stringify(history), JSON.stringify(ui)]).messages), [T(2), T(4), T(7), T(9)]);
  // Two api_req_started at one index: that request, and the response after it, get no time.
  const doubled = [...ui, say(8, 1, "api_req_started")];
  assert.deepEqual(ats(convert("cline", [JSON.stringify(history), JSON.stringify(doubled)]).messages), [T(2), T(4), null, null]);
  assert.deepEqual(ats(convert("cline", [JSON.stringify(history)]).messages), [null, null, null, null]);
});
