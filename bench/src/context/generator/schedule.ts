// When each planted fact appears, as fractions of the session, so that a 50-iteration session and a
// 1,000-iteration one have the same shape: constraints early, decisions spread out, superseded
// values changed in the second half, the last failing test and the next step near the end.

export interface Schedule {
  steer: number;
  checklistAdd: number;
  decisions: number[];
  supersededOld: number[];
  supersededNew: number[];
  incidentals: number[];
  /** Iteration at which checklist item k (0-based) is done; the last item stays open. */
  checklistDone: number[];
  failingTest: number;
  finalScratchpad: number;
  nextStep: number;
  scratchpadEvery: number;
}

const MIN_ITERATIONS = 20;

export function scheduleFor(iterations: number): Schedule {
  const n = iterations;
  if (!Number.isInteger(n) || n < MIN_ITERATIONS) throw new RangeError(`a session needs at least ${MIN_ITERATIONS} iterations, got ${n}`);
  const at = (f: number): number => Math.min(n - 4, Math.max(2, Math.round(f * n)));
  return {
    steer: Math.max(2, Math.round(0.05 * n)),
    checklistAdd: Math.max(3, Math.round(0.08 * n)),
    decisions: [0.12, 0.3, 0.5, 0.65].map(at),
    supersededOld: [0.2, 0.25].map(at),
    supersededNew: [0.7, 0.6].map(at),
    incidentals: [0.1, 0.4, 0.55].map(at),
    checklistDone: [0.2, 0.35, 0.5, 0.65].map(at),
    failingTest: at(0.9),
    finalScratchpad: Math.min(n - 3, at(0.9) + Math.max(1, Math.round(0.03 * n))),
    nextStep: n - 2,
    scratchpadEvery: Math.max(8, Math.round(n / 12)),
  };
}
