import type { ToolSpec } from "../ports/model.js";
import { MEMORY_TYPES, type MemoryType, type Signal } from "../signals/types.js";

// The signals as structured tools. They are handled by the loop itself (they change its state), go
// through the same code as text signals, and are available to every hat; publish_event is still
// limited to the topics the hat declares.

export const LOOP_TOOL_SPECS: ToolSpec[] = [
  {
    name: "update_scratchpad",
    description:
      "Replace your scratchpad (Current Understanding, Current Plan, Key Decisions, Blockers, Last Action). Same as the SCRATCHPAD: signal.",
    inputSchema: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
  },
  {
    name: "update_checklist",
    description: "Add checklist items and mark items done or failed. Same as the CHECKLIST_ADD/DONE/FAILED signals.",
    inputSchema: {
      type: "object",
      properties: {
        add: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { type: "string" }, description: { type: "string" } },
            required: ["id", "description"],
          },
        },
        done: { type: "array", items: { type: "string" } },
        failed: {
          type: "array",
          items: { type: "object", properties: { id: { type: "string" }, reason: { type: "string" } }, required: ["id", "reason"] },
        },
      },
    },
  },
  {
    name: "remember",
    description: "Keep a fact for later sessions in this repository. Same as the MEMORY: signal.",
    inputSchema: {
      type: "object",
      properties: { type: { type: "string", enum: [...MEMORY_TYPES] }, text: { type: "string" } },
      required: ["type", "text"],
    },
  },
  {
    name: "publish_event",
    description: "Hand the work to the next hat by publishing one of your hat's events. Same as the EVENT: signal.",
    inputSchema: { type: "object", properties: { topic: { type: "string" }, message: { type: "string" } }, required: ["topic"] },
  },
  {
    name: "acknowledge_failures",
    description: "Accept checklist items that failed on purpose, so task_complete may finish. Same as ACKNOWLEDGE_FAILURES.",
    inputSchema: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] },
  },
  {
    name: "ask_user",
    description:
      "Ask the person running this session a question you cannot answer from the repository (a choice only they can make, missing access or information). The run waits after this turn; their answer arrives as the next message. Same as the ASK_USER: signal. Ask rarely, one clear question with the options you see.",
    inputSchema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
  },
];

export const LOOP_TOOL_NAMES = new Set(LOOP_TOOL_SPECS.map((s) => s.name));

/** The signals a loop-tool call stands for, or an error message for bad input. */
export function loopToolSignals(name: string, input: Record<string, unknown>, knownTopics: ReadonlySet<string>): Signal[] | string {
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
  switch (name) {
    case "update_scratchpad": {
      const content = str(input.content);
      return content ? [{ kind: "scratchpad", content }] : "content must be a non-empty string";
    }
    case "update_checklist": {
      const signals: Signal[] = [];
      for (const item of asArray(input.add)) {
        const id = str(item?.id);
        const description = str(item?.description);
        if (!id || !description) return "each added item needs an id and a description";
        signals.push({ kind: "checklist_add", id, description });
      }
      for (const id of asArray(input.done)) {
        if (!str(id)) return "done must list item ids";
        signals.push({ kind: "checklist_done", id: str(id)! });
      }
      for (const item of asArray(input.failed)) {
        const id = str(item?.id);
        const reason = str(item?.reason);
        if (!id || !reason) return "each failed item needs an id and a reason";
        signals.push({ kind: "checklist_failed", id, reason });
      }
      return signals.length ? signals : "nothing to update: give add, done or failed";
    }
    case "remember": {
      const type = str(input.type)?.toLowerCase();
      const text = str(input.text);
      if (!type || !MEMORY_TYPES.includes(type as MemoryType) || !text)
        return `type must be one of ${MEMORY_TYPES.join(", ")} and text non-empty`;
      return [{ kind: "memory", memoryType: type as MemoryType, text }];
    }
    case "publish_event": {
      const topic = str(input.topic);
      if (!topic || !knownTopics.has(topic)) return `unknown topic ${topic ?? "(none)"}`;
      const message = str(input.message);
      return [{ kind: "event", topic, payload: message ? { message } : undefined }];
    }
    case "acknowledge_failures":
      return [{ kind: "acknowledge" }];
    case "ask_user": {
      const question = str(input.question);
      return question ? [{ kind: "ask", question }] : "question must be a non-empty string";
    }
    default:
      return `unknown loop tool ${name}`;
  }
}

// Models sometimes send one object where a list is expected; accept it.
function asArray(value: unknown): Array<Record<string, unknown> | undefined> {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]) as Array<Record<string, unknown> | undefined>;
}
