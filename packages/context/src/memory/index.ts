// Memory and checkpoint quality: decision extraction and dedup, injected-text filtering, secret
// redaction, the running sets of decisions and open items, thread and working state, and knowledge
// facts. Pure functions over messages and strings.

export { extractDecisionFromResponse, MAX_DECISION_LENGTH } from "./decision-extract.js";
export { hasActionVerb, isDecisionNoise, passesDecisionGate } from "./decision-quality.js";
export { buildDecisionEnrichmentPrompt, parseDecisionEnrichment, type DecisionEnrichmentResult } from "./decision-enrichment.js";
export { dedupForm, extractKeywords, formsAreDuplicates, isSemanticDuplicate, normalizeForDedup, STOP_WORDS, type DedupForm } from "./dedup.js";
export { isInjectedText, isRealUserMessage, isSteeringText, realUserText } from "./real-user.js";
export { placeholder, redactSecrets, type SecretLabel } from "./redact.js";
export {
  captureDecision,
  captureOpenItem,
  cleanItem,
  dedupeKeepNewest,
  MAX_DECISIONS,
  MAX_OPEN_ITEMS,
  mergeDecisions,
  mergeOpenItems,
  withoutResolved,
  type DecisionRecord,
} from "./items.js";
export { extractNextAction, extractOpenItems, type OpenItemsFound } from "./open-items-extract.js";
export { buildKeyExchanges, buildThread, buildThreadSummary, gist, type KeyExchange, type ThreadState } from "./thread.js";
export {
  extractTopic,
  extractWorkingState,
  inferStatus,
  isInterrupted,
  lastToolCall,
  nextActionFromMessages,
  summarizeToolParams,
  type ToolCallSummary,
  type WorkingState,
  type WorkingStatus,
} from "./working-state.js";
export { FACT_TYPES, isFactType, type ExistingFact, type FactCandidate, type FactOp, type FactType } from "./facts-types.js";
export { factKey, parseStatement, type Statement } from "./fact-statement.js";
export { extractFactCandidates, type FactExtractionOptions } from "./facts-extract.js";
export { reconcileFacts } from "./facts-reconcile.js";
export { buildFactExtractionPrompt, parseFactExtractionResponse, type FactParseResult } from "./facts-prompt.js";
export { failingTests, passingTests } from "./test-output.js";
