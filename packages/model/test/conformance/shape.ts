// The shape of a stream, to compare ours with a recording: event order with pings dropped and runs
// of one delta type collapsed, and the key paths each kind of event carries.

/** Event order with pings dropped and runs of one delta type collapsed; key paths per event kind. */
export function streamShape(events: unknown[]): { order: string[]; fields: Record<string, string[]> } {
  const order: string[] = [];
  const fields: Record<string, Set<string>> = {};
  for (const event of events as Array<{ type: string; content_block?: { type: string }; delta?: { type?: string } }>) {
    if (event.type === "ping") continue;
    const kind =
      event.type === "content_block_start"
        ? `start:${event.content_block!.type}`
        : event.type === "content_block_delta"
          ? `delta:${event.delta!.type}`
          : event.type;
    if (order.at(-1) !== kind) order.push(kind);
    const seen = (fields[kind] ??= new Set());
    for (const p of paths(event)) seen.add(p);
  }
  return { order, fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, [...v].sort()])) };
}

function paths(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => paths(v, prefix ? `${prefix}.${k}` : k));
}
