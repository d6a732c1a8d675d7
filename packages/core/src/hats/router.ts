import type { Hat } from "./hat.js";

// Routing: an event published by the current hat wakes the hat that triggers on it. A hat may only
// publish what it declares; anything else is refused with a reason the model is told (a peer bug was
// to log routing errors silently).

export type RouteResult = { kind: "route"; to: Hat } | { kind: "rejected"; reason: string };

export function routeEvent(hats: Map<string, Hat>, from: Hat, topic: string): RouteResult {
  if (!from.publishes.includes(topic)) {
    const allowed = from.publishes.length ? from.publishes.join(", ") : "none";
    return { kind: "rejected", reason: `the ${from.name} hat may not publish ${topic} (it may publish: ${allowed})` };
  }
  const candidates = [...hats.values()].filter((h) => h.triggers.includes(topic));
  if (candidates.length === 0) return { kind: "rejected", reason: `no hat triggers on ${topic}` };
  candidates.sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
  return { kind: "route", to: candidates[0]! };
}

/** Where work the grader sends back goes, as a rejected review does: the hat that triggers on review.rejected. */
export function revisionHat(hats: Map<string, Hat>): Hat | null {
  const candidates = [...hats.values()].filter((h) => h.triggers.includes(REVISION_TOPIC));
  candidates.sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
  return candidates[0] ?? null;
}

export const REVISION_TOPIC = "review.rejected";

/** Every topic some hat publishes or triggers on: anything else in an EVENT signal is unknown. */
export function knownTopics(hats: Map<string, Hat>): Set<string> {
  const topics = new Set<string>();
  for (const hat of hats.values()) [...hat.triggers, ...hat.publishes].forEach((t) => topics.add(t));
  return topics;
}
