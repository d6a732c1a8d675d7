// Live-context window management: token accounting, guard zones and latch, the gauge, progressive
// middle-out tool-result removal, turn-aware pruning, summaries and the prompt-cache cost model.

export { DEFAULT_ESTIMATE, costParts, estimatePromptOverhead, estimateTokens, partsToTokens } from "./estimate-tokens.js";
export type { CostParts, EstimateOptions } from "./estimate-tokens.js";
export { CHARS_PER_TOKEN_BOUNDS, blendCharsPerToken, calibrateCharsPerToken } from "./calibrate.js";
export type { CalibrationSample } from "./calibrate.js";
export { fingerprintMessage, fingerprintMessages, fingerprintText } from "./fingerprint.js";
export { anchorFromUsage, contextTokens } from "./token-accounting.js";
export type { AnchorInput, ContextTokens, PromptUsage, UsageAnchor } from "./token-accounting.js";

export { DEFAULT_ZONE_THRESHOLDS, ZONE_ORDER, resolveThresholds, thresholdTokens, zoneAtLeast, zoneFor } from "./zones.js";
export type { ContextZone, ZoneConfig, ZoneThresholds } from "./zones.js";
export { INITIAL_LATCH_STATE, createPressureLatch, stepLatch } from "./pressure-latch.js";
export type { LatchConfig, LatchSignals, LatchState, LatchStep, PressureLatch } from "./pressure-latch.js";
export { formatGauge, gaugeLine } from "./gauge.js";
export type { GaugeInput } from "./gauge.js";

export { validatePairing } from "./validate-pairing.js";
export type { PairingOptions, PairingProblem, PairingProblemCode } from "./validate-pairing.js";
export { failureLine, firstMeaningfulLine, reportsFailure } from "./failure-line.js";
export { isStubbedResult, stubResult, stubText } from "./tool-result-stub.js";
export type { StubSource } from "./tool-result-stub.js";
export { describeToolCall, keyArgument } from "./tool-input.js";
export { filterToolResponses, middleOutOrder, removalCount, removeToolResponses } from "./filter-tool-responses.js";
export type { RemovalOptions, RemovalResult } from "./filter-tool-responses.js";
export { DEFAULT_REMOVAL_LEVELS, compactProgressive } from "./compact-progressive.js";
export type { CompactOptions, CompactResult } from "./compact-progressive.js";

export { isArtifactText, isTurnStart, splitTurns } from "./turns.js";
export type { Turn } from "./turns.js";
export { ARTIFACT_PLACEHOLDER, stripArtifacts } from "./strip-artifacts.js";
export type { StrippedArtifacts } from "./strip-artifacts.js";
export { pruneTurns, zonePrunePolicy } from "./prune-turns.js";
export type { PruneResult, PruneTurnsOptions, ZonePrunePolicy } from "./prune-turns.js";
export { planCompaction } from "./plan-compaction.js";
export type { CompactionPlan, PlanCompactionOptions } from "./plan-compaction.js";

export { artifactTrail, changedPaths, toolCalls } from "./artifact-trail.js";
export type { ToolCallRecord } from "./artifact-trail.js";
export { summarizeMechanically } from "./summarize-mechanical.js";
export type { CommandRun, MechanicalSummary, MechanicalSummaryOptions } from "./summarize-mechanical.js";
export { SUMMARY_SECTIONS } from "./summary-sections.js";
export type { SummarySectionTitle } from "./summary-sections.js";
export { buildSummaryPrompt } from "./summary-prompt.js";
export type { SummaryPromptOptions } from "./summary-prompt.js";
export { missingSections, parseStructuredSummary } from "./parse-summary.js";
export { renderCompactedHistory } from "./compacted-history.js";
export type { CompactedHistoryMeta } from "./compacted-history.js";

export { clearingPaysOff, messageSegments, simulatePromptCache } from "./cache-cost.js";
export type { CachePricing, CacheSimulation, PromptSegment, RequestCacheCost } from "./cache-cost.js";
