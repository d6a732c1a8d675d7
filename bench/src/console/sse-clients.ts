import { wallNow } from "./browser.js";
import type { ServeProcess } from "./serve-process.js";

// Open pages that are not browsers: plain HTTP clients on a page's live stream (/live/fleet), sending
// the bearer token. The server does for each what it does for a browser's page (a watcher, its rows
// rendered and written); each client reads everything and notes when each numbered marker
// (`bench-row-N`) first reached it, to time an update across every open page.

export interface StreamClient {
  /** Wall-clock time each marker number first arrived. */
  arrivals: Map<number, number>;
  bytes(): number;
  close(): void;
}

/** Opens a stream and resolves once its first message (the rows as they are now) is in. */
export async function openStreamClient(serve: ServeProcess, path: string, prefix: string): Promise<StreamClient> {
  const abort = new AbortController();
  const response = await fetch(`${serve.base}${path}`, {
    headers: { authorization: `Bearer ${serve.token}`, accept: "text/event-stream" },
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`${path}: ${response.status}`);
  const arrivals = new Map<number, number>();
  const pattern = new RegExp(`${prefix}(\\d+)`, "g");
  let bytes = 0;
  const first = { resolve: () => {}, reject: (_error: unknown) => {} };
  const firstMessage = new Promise<void>((resolve, reject) => Object.assign(first, { resolve, reject }));
  let started = false;
  // A marker may be cut between two chunks: the end of the last one is read again with the next.
  let carry = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const at = wallNow();
      bytes += chunk.byteLength;
      const text = carry + decoder.decode(chunk, { stream: true });
      for (const found of text.matchAll(pattern)) {
        const n = Number(found[1]);
        if (!arrivals.has(n)) arrivals.set(n, at);
      }
      carry = text.slice(-64);
      if (!started && text.includes("\n\n")) {
        started = true;
        first.resolve();
      }
    }
  })().catch((error: unknown) => first.reject(error));
  await firstMessage;
  return { arrivals, bytes: () => bytes, close: () => abort.abort() };
}
