// Handoff: build a handoff from explicit inputs (task, hat, checklist, scratchpad, git facts,
// messages, decisions, learnings, usage, failure), render it as markdown, JSON or YAML and parse
// JSON/YAML back, and render the lean resume packet injected when a session resumes.

export { buildHandoff, carryOf } from "./build.js";
export { collectDecisions, keyDecisionsOf } from "./collect.js";
export { buildContinuationPrompt } from "./continuation.js";
export type { ChecklistEntry, ChecklistEntryStatus, FailureInput, GitFacts, HandoffCarry, HandoffInputs, UsageInput } from "./inputs.js";
export { renderHandoffJson, parseHandoffJson } from "./render-json.js";
export { renderHandoffMarkdown } from "./render-markdown.js";
export { renderHandoffYaml, parseHandoffYaml } from "./render-yaml.js";
export { DEFAULT_RESUME_MAX_TOKENS, estimatePacketTokens, renderResumePacket, type ResumePacketOptions } from "./resume-packet.js";
export { parseScratchpad, type PlanItem, type Scratchpad } from "./scratchpad.js";
export {
  HANDOFF_SCHEMA,
  HANDOFF_SCHEMA_VERSION,
  type BudgetsSnapshot,
  type CommitSummary,
  type Diffstat,
  type DiffstatFile,
  type FailureContext,
  type Handoff,
  type HandoffThread,
  type HandoffWorking,
  type UsageSnapshot,
} from "./types.js";
export { HandoffFormatError, validateHandoff } from "./validate.js";
