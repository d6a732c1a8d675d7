import { estimateTokens, type Message } from "@hatloop/context";
import { createRng } from "../util/rng.js";
import { generateSession } from "./generator/index.js";
import { codeLine } from "./generator/vocabulary.js";
import type { BenchInput } from "./input.js";

// The inputs of a context run: synthetic sessions of three lengths against the product's default
// 200k window (50 iterations fit in it — the control; 200 and 1,000 exceed it 1.5x and 7x), and the
// user's transcripts. The system prompt and tool specs are a fixed 6,000-token block for everyone.

export const SYNTHETIC_WINDOW = 200_000;
export const FULL_LENGTHS = [50, 200, 1000] as const;
export const QUICK_LENGTHS = [50, 200] as const;
const SYSTEM_CHARS = 24_000;

/** Per length, `perLength` sessions with consecutive seeds (consecutive seeds alternate the scenario). */
export function syntheticInputs(seed: number, lengths: readonly number[], perLength = 1): BenchInput[] {
  const plan = lengths.flatMap((iterations, i) =>
    Array.from({ length: perLength }, (_, k) => ({ seed: seed + i * perLength + k, iterations })),
  );
  return plan.map(({ seed: s, iterations }) => {
    const session = generateSession({ seed: s, iterations });
    return { name: session.name, kind: "synthetic", messages: session.messages, facts: session.facts, window: SYNTHETIC_WINDOW };
  });
}

/** A deterministic stand-in for hatloop's system prompt and tool specs (about 6,000 tokens). */
export function benchSystemPrompt(): string {
  const rng = createRng(0x5eed);
  const lines = ["You are a coding agent working in a Ralph loop. Follow the hat's instructions and the rules below."];
  while (lines.join("\n").length < SYSTEM_CHARS) lines.push(`- Rule: ${codeLine(rng, 0).replace(/[{}]/g, "").trim() || "keep going"}`);
  return lines.join("\n").slice(0, SYSTEM_CHARS);
}

export function sessionStats(messages: readonly Message[]): { tokens: number; toolResultShare: number } {
  let tokens = 0;
  let results = 0;
  for (const m of messages) {
    if (typeof m.content === "string") {
      tokens += estimateTokens([m]);
      continue;
    }
    for (const block of m.content) {
      const t = estimateTokens([{ role: m.role, content: [block] }]);
      tokens += t;
      if (block.type === "tool_result") results += t;
    }
  }
  return { tokens, toolResultShare: tokens ? results / tokens : 0 };
}
