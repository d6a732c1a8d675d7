// JSON a model wrote can nest as deep as it likes (a tool input 100,000 levels deep has been seen).
// Recursive walks overflow the stack on it, JSON.stringify too (past ~10,000 levels), and so does
// structuredClone (past ~3,000). These helpers are iterative, or recursive only to a fixed depth.

/** How deep hatloop keeps model-provided JSON as structure; deeper parts are kept as JSON text. */
export const MAX_JSON_DEPTH = 64;

type Piece = { value: unknown } | string;

/** Values JSON has no place for: left out of objects, null in arrays. */
function unwritable(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** An object or array to descend into; null for scalars and values that say how to write themselves (Date). */
function container(value: unknown): object | null {
  if (typeof value !== "object" || value === null) return null;
  return typeof (value as { toJSON?: unknown }).toJSON === "function" ? null : value;
}

/** What JSON.stringify(value) gives, for any depth (an unwritable top-level value gives "null"). */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  const todo: Piece[] = [{ value }];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    const node = container(next.value);
    if (!node) {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for undefined, a function or a symbol, though lib.d.ts says string
      out.push(JSON.stringify(next.value) ?? "null");
      continue;
    }
    const pieces: Piece[] = [];
    if (Array.isArray(node)) {
      node.forEach((item, i) => pieces.push(i ? "," : "", { value: unwritable(item) ? null : item }));
    } else {
      let first = true;
      for (const [key, item] of Object.entries(node)) {
        if (unwritable(item)) continue;
        pieces.push(`${first ? "" : ","}${JSON.stringify(key)}:`, { value: item });
        first = false;
      }
    }
    const [open, close] = Array.isArray(node) ? ["[", "]"] : ["{", "}"];
    todo.push(close);
    for (let i = pieces.length - 1; i >= 0; i--) todo.push(pieces[i]!);
    todo.push(open);
  }
  return out.join("");
}

/** Whether containers nest more than `limit` levels deep in `value` (a scalar is 0 deep). */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const todo: Array<[unknown, number]> = [[value, 0]];
  while (todo.length > 0) {
    const [item, depth] = todo.pop()!;
    const node = container(item);
    if (!node) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) todo.push([child, depth + 1]);
  }
  return false;
}

/**
 * `value` with at most `max` levels of nesting: a container below that is replaced by its JSON
 * text, so nothing is lost. The same value back when it is shallow enough.
 */
export function boundJsonDepth(value: unknown, max = MAX_JSON_DEPTH): unknown {
  return jsonDepthExceeds(value, max) ? bound(value, max) : value;
}

function bound(value: unknown, levels: number): unknown {
  const node = container(value);
  if (!node) return value;
  if (levels === 0) return jsonText(node);
  if (Array.isArray(node)) return node.map((item) => bound(item, levels - 1));
  return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, bound(item, levels - 1)]));
}
