import type { Store } from "@hatloop/core";
import { DatabaseError } from "../location.js";

// drizzle wraps every error of a query in "Failed query: <the SQL> params: <values>". hatloop's own
// database errors (unreachable past the bound, damaged) are meant for the user, so the store throws
// them as themselves: one readable line in the loop's error event and in the CLI's last word.

const SUB_STORES = ["sessions", "messages", "checkpoints", "events", "checklist", "memories"] as const;

/** The first DatabaseError in the cause chain, else the error itself. */
export function surfacedError(error: unknown): unknown {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseError) return e;
  }
  return error;
}

export function surfaceDatabaseErrors<T extends Store>(store: T): T {
  const wrapped = { ...store } as Record<string, unknown>;
  for (const key of SUB_STORES) wrapped[key] = wrapMethods(store[key]);
  // Views of the same store (a runner's fenced one) surface errors too.
  const fenced = (store as { fenced?: (...args: unknown[]) => Store }).fenced;
  if (fenced) wrapped.fenced = (...args: unknown[]) => surfaceDatabaseErrors(fenced.apply(store, args));
  return wrapped as T;
}

function wrapMethods<T extends object>(target: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    wrapped[name] =
      typeof value !== "function"
        ? value
        : async (...args: unknown[]) => {
            try {
              return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            } catch (error) {
              throw surfacedError(error);
            }
          };
  }
  return wrapped as T;
}
