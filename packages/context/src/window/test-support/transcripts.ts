import type { ContentBlock, Message, ToolResultBlock, ToolUseBlock } from "../../messages.js";

// Builders and a seeded synthetic Ralph transcript for the window tests and the timing helper.
// Deterministic: the same seed gives the same transcript, byte for byte.

export const user = (...content: Array<string | ContentBlock>): Message => ({
  role: "user",
  content: content.length === 1 && typeof content[0] === "string" ? content[0] : content.map(toBlock),
});

export const assistant = (...content: Array<string | ContentBlock>): Message => ({
  role: "assistant",
  content: content.map(toBlock),
});

export const use = (id: string, name: string, input: unknown = {}): ToolUseBlock => ({ type: "tool_use", id, name, input });

export const result = (id: string, content: ToolResultBlock["content"], isError = false): ToolResultBlock =>
  isError ? { type: "tool_result", tool_use_id: id, content, is_error: true } : { type: "tool_result", tool_use_id: id, content };

function toBlock(c: string | ContentBlock): ContentBlock {
  return typeof c === "string" ? { type: "text", text: c } : c;
}

/** mulberry32: tiny, seeded, good enough for fixtures. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SyntheticOptions {
  seed?: number;
  turns?: number;
  /** Average tool result size in characters (log-normal-ish spread around it). */
  resultChars?: number;
  /** Assistant tool-calling steps per turn, at most. */
  maxStepsPerTurn?: number;
  /** Parallel tool calls per step, at most. */
  maxParallel?: number;
}

const FILES = ["src/auth/login.ts", "src/auth/session.ts", "src/db/pool.ts", "test/auth.test.ts", "README.md", "src/util/retry.ts"];

/** A Ralph-style history: per turn a continuation prompt, tool-calling steps with parallel calls, a closing reply. */
export function syntheticTranscript(opts: SyntheticOptions = {}): Message[] {
  const rand = seededRandom(opts.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const size = (): number => Math.max(20, Math.round((opts.resultChars ?? 3_000) * Math.exp((rand() - 0.5) * 1.6)));
  const messages: Message[] = [user("Make the flaky auth test deterministic. Never edit migrations/.")];
  let id = 0;
  for (let turn = 0; turn < (opts.turns ?? 20); turn++) {
    if (turn > 0) messages.push(user(`[hatloop] Iteration ${turn + 1}: continue with the checklist.`));
    const steps = 1 + Math.floor(rand() * (opts.maxStepsPerTurn ?? 3));
    for (let s = 0; s < steps; s++) {
      const calls = Array.from({ length: 1 + Math.floor(rand() * (opts.maxParallel ?? 3)) }, () => {
        const callId = `toolu_${String(++id).padStart(4, "0")}`;
        const kind = pick(["read_file", "search", "run_command", "edit_file", "write_file"] as const);
        const path = pick(FILES);
        const input =
          kind === "search"
            ? { pattern: `flaky|retry${id}` }
            : kind === "run_command"
              ? { command: "pnpm test test/auth.test.ts" }
              : kind === "edit_file"
                ? { path, old_string: "await sleep(100)", new_string: "await clock.tick(100)" }
                : kind === "write_file"
                  ? { path, content: filler(rand, Math.round(size() / 3)) }
                  : { path };
        return use(callId, kind, input);
      });
      messages.push(assistant(`Step ${s + 1} of turn ${turn + 1}: checking ${calls.length} thing(s).`, ...calls));
      messages.push({
        role: "user",
        content: calls.map((c) => {
          const failed = rand() < 0.08;
          const body = c.name === "run_command" ? `exit code: ${failed ? 1 : 0}\n${filler(rand, size())}` : filler(rand, size());
          return result(c.id, body, failed);
        }),
      });
    }
    messages.push(assistant(`Turn ${turn + 1} done. I decided to keep the fake clock instead of real timers.`));
  }
  return messages;
}

const WORDS = ["const", "await", "login", "session", "expect", "token", "retry", "clock", "return", "user", "=>", "{", "}", "if", "test"];

function filler(rand: () => number, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  let line = 0;
  while (length < chars) {
    const word = WORDS[Math.floor(rand() * WORDS.length)]!;
    const sep = ++line % 12 === 0 ? "\n" : " ";
    parts.push(word, sep);
    length += word.length + 1;
  }
  return parts.join("").slice(0, chars);
}
