import type { Message } from "../messages.js";

// Content fingerprints: enough to tell "the same prefix as last time" (token anchoring, cache
// simulation) without keeping copies. cyrb53 — fast, deterministic, 53 bits; not cryptographic.

export function fingerprintText(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const value = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return value.toString(16).padStart(14, "0");
}

export function fingerprintMessage(message: Message): string {
  return fingerprintText(JSON.stringify(message));
}

/** One fingerprint for a whole list, sensitive to order and to every block. */
export function fingerprintMessages(messages: readonly Message[]): string {
  return fingerprintText(messages.map(fingerprintMessage).join("|"));
}
