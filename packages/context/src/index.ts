// @hatloop/context's public surface: what the other packages use, named one by one so that an
// export nobody uses shows up (knip). Everything else in src/ is internal to the package.

// Messages (the Anthropic content-block shapes), the markers hatloop writes into them, and JSON depth.
export { errorMessage } from "./error-message.js";
export { boundJsonDepth, jsonDepthExceeds, jsonText, MAX_JSON_DEPTH } from "./json-depth.js";
export { MARKERS } from "./markers.js";
export {
  blocksOf,
  type CacheControl,
  type ContentBlock,
  type ImageBlock,
  type Message,
  type TextBlock,
  textOf,
  type ToolResultBlock,
  toolResults,
  toolResultText,
  type ToolUseBlock,
  toolUses,
} from "./messages.js";

// The live context window: token accounting, guard zones and latch, the gauge, middle-out tool-result
// removal, turn-aware pruning, summaries and the prompt-cache cost model.
export { artifactTrail, changedPaths, toolCalls } from "./window/artifact-trail.js";
export {
  CACHE_TTL_MS,
  type CachePricing,
  type CacheSimulation,
  type CacheTtl,
  messageSegments,
  type PromptSegment,
  type RequestTiming,
  simulatePromptCache,
} from "./window/cache-cost.js";
export { calibrateCharsPerToken } from "./window/calibrate.js";
export { renderCompactedHistory } from "./window/compacted-history.js";
export { cheapestTrigger } from "./window/compaction-economics.js";
export { cutToFit } from "./window/cut-to-fit.js";
export type { KeptEntry } from "./window/entry.js";
export { DEFAULT_ESTIMATE, type EstimateOptions, estimatePromptOverhead, estimateTokens } from "./window/estimate-tokens.js";
export { reportsFailure } from "./window/failure-line.js";
export { removeToolResponses } from "./window/filter-tool-responses.js";
export { fingerprintText } from "./window/fingerprint.js";
export { gaugeLine } from "./window/gauge.js";
export { parseStructuredSummary } from "./window/parse-summary.js";
export { planCompaction } from "./window/plan-compaction.js";
export { INITIAL_LATCH_STATE, type LatchState, stepLatch } from "./window/pressure-latch.js";
export { isBlankText, sendableMessages } from "./window/sendable.js";
export { summarizeMechanically } from "./window/summarize-mechanical.js";
export { buildSummaryPrompt } from "./window/summary-prompt.js";
export { contextTokens } from "./window/token-accounting.js";
export { validatePairing } from "./window/validate-pairing.js";
export { zoneFor } from "./window/zones.js";

// Memory and checkpoint quality: decisions, injected-text filtering, secret redaction, open items and
// knowledge facts.
export { extractDecisionFromResponse, extractDecisionsFromResponse, extractUserDecisions } from "./memory/decision-extract.js";
export { extractKeywords } from "./memory/dedup.js";
export { extractFactCandidates } from "./memory/facts-extract.js";
export { buildFactExtractionPrompt, parseFactExtractionResponse } from "./memory/facts-prompt.js";
export { reconcileFacts } from "./memory/facts-reconcile.js";
export type { FactCandidate } from "./memory/facts-types.js";
export { type DecisionRecord, mergeDecisions } from "./memory/items.js";
export { extractNextAction } from "./memory/open-items-extract.js";
export { isRealUserMessage, realUserText } from "./memory/real-user.js";
export { personWords } from "./memory/person-words.js";
export { namedItems } from "./window/named-items.js";
export { placeholder, redactSecrets } from "./memory/redact.js";

// The handoff: built from explicit inputs, rendered as markdown, JSON or YAML (and parsed back), and
// the lean resume packet injected when a session resumes.
export { buildHandoff, carryOf, newestFailureLine } from "./handoff/build.js";
export { collectDecisions, keyDecisionsOf } from "./handoff/collect.js";
export { CHECKLIST_STATUSES, type ChecklistEntry, type FailureInput, type GitFacts, type HandoffCarry } from "./handoff/inputs.js";
export { expandPathTree } from "./handoff/path-tree.js";
export { parseHandoffJson, renderHandoffJson } from "./handoff/render-json.js";
export { acceptanceLines, renderHandoffMarkdown } from "./handoff/render-markdown.js";
export { parseHandoffYaml, renderHandoffYaml } from "./handoff/render-yaml.js";
export { estimatePacketTokens, renderResumePacket } from "./handoff/resume-packet.js";
export { parseScratchpad } from "./handoff/scratchpad.js";
export type { Acceptance, Handoff } from "./handoff/types.js";
export { validateHandoff } from "./handoff/validate.js";
