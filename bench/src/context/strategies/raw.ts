import type { Message } from "@hatloop/context";
import { tailHandoff } from "./tail-handoff.js";
import type { Strategy } from "./types.js";

// The baseline: every message, every call. It overflows any window on long sessions (the report
// counts the calls the API would refuse), but it is the cache's best case and loses nothing live.

export const raw: Strategy = {
  name: "raw",
  summary: "full history, no management",
  start() {
    const history: Message[] = [];
    return {
      async next(appended) {
        history.push(...appended);
        return [...history];
      },
      async handoff(appended) {
        history.push(...appended);
        return tailHandoff(history, history);
      },
      stats: () => ({}),
    };
  },
};
