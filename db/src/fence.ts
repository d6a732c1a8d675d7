import { LeaseLostError } from "@hatloop/core";

// Fencing of a runner's writes by its session lease (see migration 0004). A row about the fenced
// session carries the runner's lease epoch; the database refuses it (SQLSTATE HL001) when the lease
// has moved on, and that refusal becomes a LeaseLostError. Rows about other sessions, and writes
// outside a run, carry null and are never refused.

export interface Fence {
  sessionId: string;
  epoch: number;
}

/** SQLSTATE raised by hatloop_check_lease(). */
const LEASE_MOVED = "HL001";

/** The epoch to stamp on a row about `sessionId`. */
export function epochFor(fence: Fence | undefined, sessionId: string): number | null {
  return fence && fence.sessionId === sessionId ? fence.epoch : null;
}

/** True when a (possibly wrapped) database error is the fence refusing a write. */
function isLeaseMoved(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === LEASE_MOVED) return true;
  }
  return false;
}

/** The sub-store with each method's fence refusals turned into LeaseLostError. */
export function withLeaseErrors<T extends object>(store: T, fence: Fence): T {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, value] of Object.entries(store)) {
    wrapped[name] =
      typeof value !== "function"
        ? value
        : async (...args: unknown[]) => {
            try {
              return await (value as (...a: unknown[]) => Promise<unknown>).apply(store, args);
            } catch (error) {
              throw isLeaseMoved(error) ? new LeaseLostError(fence.sessionId) : error;
            }
          };
  }
  return wrapped as T;
}
