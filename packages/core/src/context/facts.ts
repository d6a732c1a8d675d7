import {
  buildFactExtractionPrompt,
  extractFactCandidates,
  parseFactExtractionResponse,
  reconcileFacts,
  type FactCandidate,
  type Message,
} from "@hatloop/context";
import type { ModelPort } from "../ports/model.js";
import { askText } from "./ask-text.js";
import type { MemoryRecord, Store, Usage } from "../store/port.js";

// Knowledge facts kept from compacted history, per repository, with the semantics of docs/design/memory-and-recall.md: ADD a new
// fact, UPDATE one with the same key and a refined value, SUPERSEDE one whose value changed (the old
// row stays, marked), NONE for what is already known. The model extracts candidates when enabled;
// the deterministic rules do otherwise, and whenever the model's answer is unusable.

export interface FactUpdate {
  added: number;
  updated: number;
  superseded: number;
  /** The extraction call, when the model made one. */
  usage: Usage | null;
  costUsd: number;
}

export async function updateFacts(
  store: Store,
  scope: { repoPath: string; sessionId: string; iteration: number },
  messages: Message[],
  extractor: { model: ModelPort; summaryModel: string; signal: AbortSignal } | null,
): Promise<FactUpdate> {
  const existing = await store.memories.listActive(scope.repoPath, { kind: "fact", limit: 500 });
  const fromModel = extractor ? await modelCandidates(messages, existing, extractor) : null;
  const candidates = fromModel?.facts ?? extractFactCandidates(messages, { knownKeys: existing.flatMap((f) => (f.key ? [f.key] : [])) });
  const result: FactUpdate = { added: 0, updated: 0, superseded: 0, usage: fromModel?.usage ?? null, costUsd: fromModel?.costUsd ?? 0 };
  for (const op of reconcileFacts(existing, candidates)) {
    if (op.op === "ADD") {
      await add(store, scope, op.fact);
      result.added++;
    } else if (op.op === "UPDATE") {
      await store.memories.updateContent(Number(op.id), op.fact.content);
      result.updated++;
    } else if (op.op === "SUPERSEDE") {
      const added = await add(store, scope, op.fact);
      await store.memories.supersede(Number(op.id), added.id);
      result.superseded++;
    }
  }
  return result;
}

async function modelCandidates(
  messages: Message[],
  known: MemoryRecord[],
  extractor: { model: ModelPort; summaryModel: string; signal: AbortSignal },
): Promise<{ facts: FactCandidate[] | null; usage: Usage; costUsd: number } | null> {
  try {
    const prompt = buildFactExtractionPrompt(messages, {
      known: known.map((f) => ({ id: f.id, key: f.key, type: f.type, content: f.content })),
    });
    const { text, usage, costUsd } = await askText(extractor, prompt, 2_048);
    const parsed = parseFactExtractionResponse(text);
    return { facts: parsed.ok ? parsed.facts : null, usage, costUsd };
  } catch {
    return null;
  }
}

function add(store: Store, scope: { repoPath: string; sessionId: string; iteration: number }, fact: FactCandidate) {
  return store.memories.add({
    sessionId: scope.sessionId,
    repoPath: scope.repoPath,
    kind: "fact",
    type: fact.type,
    key: fact.key,
    content: fact.content,
    confidence: 0.7,
    source: "compaction",
    iteration: scope.iteration,
  });
}
