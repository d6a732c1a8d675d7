import type { Message } from "@hatloop/context";
import { searchableText } from "../util/message-text.js";
import type { Strategy } from "../context/strategies/index.js";

// Tiny strategies with known behaviour, to check that the harness scores what they do.

/** Sends the full history except the messages for which `drop` is true; hands off the same. */
export function dropping(name: string, drop: (m: Message, index: number) => boolean): Strategy {
  return {
    name,
    summary: "test strategy",
    start() {
      const history: Message[] = [];
      const view = (): Message[] => history.filter((m, i) => !drop(m, i));
      return {
        async next(appended) {
          history.push(...appended);
          return view();
        },
        async handoff(appended) {
          history.push(...appended);
          const text = searchableText(view());
          return { text, tokens: Math.ceil(text.length / 4), describe: "everything kept" };
        },
        stats: () => ({}),
      };
    },
  };
}

/** Sends exactly the given requests, one per call, whatever the session. */
export function scripted(requests: readonly Message[][]): Strategy {
  return {
    name: "scripted",
    summary: "test strategy",
    start() {
      let k = 0;
      return {
        async next() {
          return requests[k++] ?? [];
        },
        async handoff() {
          return { text: "", tokens: 0, describe: "none" };
        },
        stats: () => ({}),
      };
    },
  };
}
