import { mkdirSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "@hatloop/context";
import type { StrategyResult } from "./result.js";
import type { Handoff } from "./strategies/types.js";

// `--dump DIR`: what each strategy sent, so anyone can score the same run with their own rules.
// DIR/<input>/<strategy>/requests.jsonl has one line per call, {"call": n, "at": i, "messages": [...]}
// where `at` is the transcript index of the call's answer and a message sent unchanged is
// {"ref": k} (its index in the transcript as the bench reads it); any other is written whole.
// Beside it: packet.md (the handoff a fresh session gets), handoff.md (the full one, if any) and
// stats.json (this strategy's result for the input).

export interface DumpSink {
  request(call: number, at: number, messages: readonly Message[], originalOf: (m: Message) => number | null): void;
  finish(handoff: Handoff, result: StrategyResult): void;
}

export function dumpSink(dir: string, input: string, strategy: string): DumpSink {
  const out = join(dir, safe(input), safe(strategy));
  mkdirSync(out, { recursive: true });
  const requests = join(out, "requests.jsonl");
  writeFileSync(requests, "");
  return {
    request(call, at, messages, originalOf) {
      const line = { call, at, messages: messages.map((m) => ((k) => (k === null ? m : { ref: k }))(originalOf(m))) };
      appendFileSync(requests, `${JSON.stringify(line)}\n`);
    },
    finish(handoff, result) {
      writeFileSync(join(out, "packet.md"), `${handoff.text}\n`);
      if (handoff.full) writeFileSync(join(out, "handoff.md"), `${handoff.full.text}\n`);
      writeFileSync(join(out, "stats.json"), `${JSON.stringify(result, null, 2)}\n`);
    },
  };
}

/** A name usable as one path segment. */
function safe(name: string): string {
  return name.replace(/[^\w.=,@+-]+/g, "_");
}
