import { MARKERS } from "../markers.js";
import { clean, DEFAULT_LIMITS, listItems, recallNote, renderFiles, renderList, TRIM_ORDER, type ListSection } from "./resume-sections.js";
import type { Handoff } from "./types.js";

// The lean packet injected when a session resumes (docs/design/handoff.md: about
// 600-800 tokens instead of a replayed history). Structured fields only, never a summary blob. When
// over budget, list sections lose items in TRIM_ORDER (open items first, blockers last), then long
// texts are shortened, and as a last resort the packet is cut, so the cap always holds — for all but
// the changed files, which are all named (up to 200, as a directory tree) whatever it costs.

export interface ResumePacketOptions {
  /** Hard cap in estimated tokens (default 800). */
  maxTokens?: number;
  /** Characters per token for the estimate (default 4). */
  charsPerToken?: number;
  /** How many messages are stored, for the recall note. */
  storedMessages?: number;
  /** The name of the recall tool (default "recall"). */
  recallTool?: string;
}

const DEFAULT_RESUME_MAX_TOKENS = 800;

export function estimatePacketTokens(text: string, charsPerToken = 4): number {
  return Math.ceil(text.length / charsPerToken);
}

interface Shape {
  limits: Record<ListSection, number>;
  itemChars: number;
  promptChars: number;
}

function render(h: Handoff, shape: Shape, note: string, files: string[]): string {
  const total = h.completed_items.length + h.remaining_items.length;
  const list = (section: ListSection) => renderList(section, listItems(h, section), shape.limits[section], shape.itemChars);
  const failure =
    h.failure === null
      ? []
      : [
          `**Last error**: ${clean(h.failure.last_error, shape.itemChars * 2)}`,
          ...(h.failure.recovery_hint ? [`**Recovery hint**: ${clean(h.failure.recovery_hint, shape.itemChars)}`] : []),
        ];
  const instructions = h.instructions.slice(-5).map((t) => `- ${clean(t, shape.itemChars * 2)}`);
  const blocks = [
    [
      MARKERS.resume,
      `**Task**: ${clean(h.task_title, 200)}`,
      ...(instructions.length ? ["**The user also said** (verbatim):", ...instructions] : []),
      `**Hat**: ${clean(h.current_hat, 40)} · **Branch**: \`${clean(h.branch, 100)}\` @ \`${h.head_commit.slice(0, 12)}\``,
      `**Progress**: ${h.completed_items.length}/${total} items completed`,
    ],
    list("blockers"),
    failure,
    h.working.last_failure ? [`**Last failure seen**: ${clean(h.working.last_failure, shape.itemChars * 2)}`] : [],
    list("remaining"),
    list("decisions"),
    files,
    list("openItems"),
    [`**Next action**: ${clean(h.working.next_action, shape.itemChars * 2)}`],
    [`**Continue with**: ${clean(h.continuation_prompt, shape.promptChars)}`],
    [note],
  ];
  return `${blocks
    .filter((b) => b.length > 0)
    .map((b) => b.join("\n"))
    .join("\n\n")}\n`;
}

/**
 * Budget steps in order: list sections shrink to a floor (open items, files and decisions to none,
 * remaining and blockers to a few), then long texts shorten, then remaining and blockers go too.
 */
const STEPS: ReadonlyArray<{ section: ListSection; floor: number } | { itemChars: number; promptChars: number }> = [
  ...TRIM_ORDER.map((section) => ({ section, floor: section === "remaining" ? 3 : section === "blockers" ? 2 : 0 })),
  { itemChars: 100, promptChars: 300 },
  { itemChars: 60, promptChars: 160 },
  { section: "remaining", floor: 0 },
  { section: "blockers", floor: 0 },
];

/** The packet, starting with MARKERS.resume, within `maxTokens` (default 800). Deterministic. */
export function renderResumePacket(handoff: Handoff, options: ResumePacketOptions = {}): string {
  const maxChars = (options.maxTokens ?? DEFAULT_RESUME_MAX_TOKENS) * (options.charsPerToken ?? 4);
  const note = recallNote({ recallTool: options.recallTool ?? "recall", storedMessages: options.storedMessages });
  const files = renderFiles(handoff);
  // The budget is for everything else: measured without the files, which are added at the end.
  let shape: Shape = { limits: { ...DEFAULT_LIMITS }, itemChars: 160, promptChars: 600 };
  let text = render(handoff, shape, note, []);
  for (const step of STEPS) {
    if ("itemChars" in step) {
      if (text.length > maxChars) shape = { ...shape, itemChars: step.itemChars, promptChars: step.promptChars };
      text = render(handoff, shape, note, []);
      continue;
    }
    while (text.length > maxChars && shape.limits[step.section] > step.floor) {
      shape = { ...shape, limits: { ...shape.limits, [step.section]: shape.limits[step.section] - 1 } };
      text = render(handoff, shape, note, []);
    }
  }
  if (text.length > maxChars) return `${text.slice(0, maxChars - 2).trimEnd()}…\n${files.length ? `\n${files.join("\n")}\n` : ""}`;
  return render(handoff, shape, note, files);
}
