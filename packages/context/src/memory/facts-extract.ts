import { textOf, toolResults, toolResultText, type Message } from "../messages.js";
import { factKey, parseStatement, slug } from "./fact-statement.js";
import { isFactType, type FactCandidate } from "./facts-types.js";
import { isRealUserMessage, realUserText } from "./real-user.js";
import { redactSecrets } from "./redact.js";
import { collapseWhitespace, linesOutsideCodeFences, stripListMarker, truncateAtWord } from "./text.js";
import { failingTests, passingTests } from "./test-output.js";

// Rule-based fact extraction from messages about to be compacted (the fallback when no model
// is configured or the model fails). Sources: MEMORY:<type>:<text> lines and keyed statements in what
// the user and the assistant wrote (never tool output, which is file content and logs), and failing
// test names in tool results. Secrets are never extracted: a fact that needed redaction is dropped.

export const MAX_FACT_LENGTH = 240;
const MAX_TEST_FACTS = 20;
const MEMORY_LINE = /^\s*(?:[-*+]\s+|>\s*)?`*MEMORY:([a-z_]+):(.+?)`*\s*$/i;

export interface FactExtractionOptions {
  /** Keys already stored; a passing run of a test stored as failing yields a superseding fact. */
  knownKeys?: Iterable<string>;
}

function sentencesOf(line: string): string[] {
  return stripListMarker(line)
    .split(/(?<=[.!?])\s+/)
    .map((s) => collapseWhitespace(s))
    .filter((s) => s.length >= 8 && s.length <= 200);
}

function safeContent(text: string): string | null {
  const content = truncateAtWord(text, MAX_FACT_LENGTH);
  return redactSecrets(content) === content && content.length > 0 ? content : null;
}

function factsFromProse(text: string, seqBase: number): FactCandidate[] {
  const facts: FactCandidate[] = [];
  linesOutsideCodeFences(text).forEach((line, lineIndex) => {
    const seq = seqBase + lineIndex;
    const memory = MEMORY_LINE.exec(line);
    if (memory) {
      const type = memory[1]!.toLowerCase();
      const content = safeContent(memory[2]!.trim());
      if (isFactType(type) && content !== null) facts.push({ key: factKey(content), type, content, seq });
      return;
    }
    for (const sentence of sentencesOf(line)) {
      const statement = parseStatement(sentence);
      const content = statement === null ? null : safeContent(sentence);
      if (statement !== null && content !== null) facts.push({ key: statement.key, type: statement.type, content, seq });
    }
  });
  return facts;
}

function factsFromTestOutput(message: Message, seqBase: number, known: ReadonlySet<string>): FactCandidate[] {
  const output = toolResults(message).map(toolResultText).join("\n");
  const failing = failingTests(output).map((name) => ({ key: `test:${slug(name, 120)}`, name, failed: true }));
  const passing = passingTests(output)
    .map((name) => ({ key: `test:${slug(name, 120)}`, name, failed: false }))
    .filter((t) => known.has(t.key) && !failing.some((f) => f.key === t.key));
  return [...failing, ...passing].slice(0, MAX_TEST_FACTS).flatMap((test, i) => {
    const content = safeContent(test.failed ? `Failing test: ${test.name}` : `Test now passes: ${test.name}`);
    return content === null
      ? []
      : [{ key: test.key, type: test.failed ? ("issue" as const) : ("task_state" as const), content, seq: seqBase + i }];
  });
}

/**
 * Candidate facts from a run of messages, in order. `seq` is message index × 1000 + position, so a
 * later statement about the same key wins in reconcileFacts.
 */
export function extractFactCandidates(messages: readonly Message[], options: FactExtractionOptions = {}): FactCandidate[] {
  const known = new Set(options.knownKeys ?? []);
  return messages.flatMap((message, index) => {
    const seqBase = index * 1000;
    if (message.role === "assistant") return factsFromProse(textOf(message), seqBase);
    const prose = isRealUserMessage(message) ? factsFromProse(realUserText(message), seqBase) : [];
    return [...prose, ...factsFromTestOutput(message, seqBase + 500, known)];
  });
}
