import type { Command } from "commander";
import { toLoopEvent, type EventSink, type Store } from "@hatloop/core";
import { positiveInt } from "../options.js";
import { resolveSession, withStore } from "../runtime.js";
import { jsonSink } from "../sinks/json.js";
import { plainSink } from "../sinks/plain.js";

const POLL_MS = 250;

export function registerLogs(program: Command): void {
  program
    .command("logs")
    .description("print a session's stored events; -f follows a running session")
    .argument("<session>", "session id or a unique prefix of it")
    .option("-f, --follow", "keep printing new events until the session's run ends")
    .option("-n, --tail <n>", "only the last N events", positiveInt)
    .option("--json", "print events as JSON lines")
    .action(async (id: string, flags: { follow?: boolean; tail?: number; json?: boolean }, command: Command) => {
      await withStore(command, async (store) => {
        const session = await resolveSession(store, id);
        const write = (line: string) => process.stdout.write(`${line}\n`);
        const sink = flags.json ? jsonSink(write) : plainSink(write);
        let last = await printEvents(store, session.id, sink, flags.tail);
        if (!flags.follow) return;
        let stop = false;
        process.once("SIGINT", () => (stop = true));
        while (!stop) {
          await new Promise((r) => setTimeout(r, POLL_MS));
          const next = await store.events.after(session.id, last.id);
          for (const event of next) sink(toLoopEvent(event));
          if (next.length) last = { id: next.at(-1)!.id, ended: next.some((e) => e.type === "session.end") };
          if (last.ended && (await store.sessions.get(session.id))?.status !== "running") return;
        }
      });
    });
}

/** Prints what is stored so far; returns the last event's id and whether a run ended with it. */
async function printEvents(store: Store, sessionId: string, sink: EventSink, tail?: number): Promise<{ id: number; ended: boolean }> {
  const events = tail ? await store.events.tail(sessionId, tail) : await allEvents(store, sessionId);
  for (const event of events) sink(toLoopEvent(event));
  const session = await store.sessions.get(sessionId);
  return { id: events.at(-1)?.id ?? 0, ended: session?.status !== "running" };
}

async function allEvents(store: Store, sessionId: string) {
  const out = [];
  for (let after = 0; ; ) {
    const page = await store.events.after(sessionId, after, 1000);
    out.push(...page);
    if (page.length < 1000) return out;
    after = page.at(-1)!.id;
  }
}
