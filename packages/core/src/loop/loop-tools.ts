import { z } from "zod";
import { defineTool, failure, success } from "../ports/define-tool.js";
import type { Tool, ToolResult } from "../ports/tools.js";
import { MEMORY_TYPES, type Signal } from "../signals/types.js";

// The signals as structured tools, defined like every other tool (defineTool: a zod schema is the
// JSON Schema the model sees and the validation of what it sends). They are the loop's own: each
// hands back the signals it stands for, which go through the same code as text signals; every hat
// has them, and publish_event is still limited to the topics the hat declares.

const text = z
  .string()
  .trim()
  .refine((value) => value.length > 0, "must not be empty");
/** Models sometimes send one item where a list is expected: taken as a list of one. */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined || value === null || Array.isArray(value) ? value : [value]), z.array(item)).optional();
const memoryType = z.preprocess((value) => (typeof value === "string" ? value.trim().toLowerCase() : value), z.enum(MEMORY_TYPES));

function said(signals: Signal[], content = "ok"): ToolResult {
  return success(content, { signals });
}

/** The loop's tools for a run whose hats publish `knownTopics`. */
export function loopTools(knownTopics: ReadonlySet<string>): Tool[] {
  return [
    defineTool({
      name: "update_scratchpad",
      description:
        "Replace your scratchpad (Current Understanding, Current Plan, Key Decisions, Blockers, Last Action). Same as the SCRATCHPAD: signal.",
      input: z.object({ content: text }),
      run: async ({ content }) => said([{ kind: "scratchpad", content }]),
    }),
    defineTool({
      name: "update_checklist",
      description: "Add checklist items and mark items done or failed. Same as the CHECKLIST_ADD/DONE/FAILED signals.",
      input: z.object({
        add: list(z.object({ id: text, description: text })),
        done: list(text),
        failed: list(z.object({ id: text, reason: text })),
      }),
      run: async ({ add = [], done = [], failed = [] }) => {
        const signals: Signal[] = [
          ...add.map(({ id, description }): Signal => ({ kind: "checklist_add", id, description })),
          ...done.map((id): Signal => ({ kind: "checklist_done", id })),
          ...failed.map(({ id, reason }): Signal => ({ kind: "checklist_failed", id, reason })),
        ];
        return signals.length ? said(signals) : failure("update_checklist: nothing to update: give add, done or failed");
      },
    }),
    defineTool({
      name: "remember",
      description: "Keep a fact for later sessions in this repository. Same as the MEMORY: signal.",
      input: z.object({ type: memoryType, text }),
      run: async ({ type, text }) => said([{ kind: "memory", memoryType: type, text }]),
    }),
    defineTool({
      name: "publish_event",
      description: "Hand the work to the next hat by publishing one of your hat's events. Same as the EVENT: signal.",
      input: z.object({ topic: text, message: z.string().optional() }),
      run: async ({ topic, message }) => {
        if (!knownTopics.has(topic)) return failure(`publish_event: unknown topic ${topic}`);
        const trimmed = message?.trim();
        return said([{ kind: "event", topic, payload: trimmed ? { message: trimmed } : undefined }]);
      },
    }),
    defineTool({
      name: "acknowledge_failures",
      description: "Accept checklist items that failed on purpose, so task_complete may finish. Same as ACKNOWLEDGE_FAILURES.",
      input: z.object({ reason: z.string() }),
      run: async () => said([{ kind: "acknowledge" }]),
    }),
    defineTool({
      name: "ask_user",
      description:
        "Ask the person running this session a question you cannot answer from the repository (a choice only they can make, missing access or information). The run waits after this turn; their answer arrives as the next message. Same as the ASK_USER: signal. Ask rarely, one clear question with the options you see.",
      input: z.object({ question: text }),
      run: async ({ question }) =>
        said([{ kind: "ask", question }], "Asked. The run waits after this turn; the answer comes as the next message."),
    }),
  ];
}

/**
 * Their names: not the hat's to allow, and not work that fails (loop health does not count them).
 * Written out, not built from loopTools(): every command loads this module, and building the tools
 * turns six zod schemas into JSON Schema (a test keeps the two lists the same).
 */
export const LOOP_TOOL_NAMES: ReadonlySet<string> = new Set([
  "update_scratchpad",
  "update_checklist",
  "remember",
  "publish_event",
  "acknowledge_failures",
  "ask_user",
]);
