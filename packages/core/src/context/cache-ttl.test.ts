import { describe, expect, it } from "vitest";
import { initialGuard } from "../state/guard.js";
import { CacheTtlPolicy as Chooser } from "./cache-ttl.js";
import type { CacheTtl } from "@hatloop/context";

/** A chooser with its observations threaded through, as the context manager does with the guard's state. */
class CacheTtlPolicy {
  private readonly chooser: Chooser;
  private state = initialGuard().ttl;
  constructor(fixed?: CacheTtl) {
    this.chooser = new Chooser(fixed ?? null);
  }
  choose(now: number, tokens: number): CacheTtl {
    const { ttl, state } = this.chooser.choose(this.state, now, tokens);
    this.state = state;
    return ttl;
  }
  rewrite(): void {
    this.state = this.chooser.rewrite(this.state);
  }
}

const MIN = 60_000;

/** Calls at the given gaps (minutes), all with the same context and growth; the TTL of each. */
function ttls(policy: CacheTtlPolicy, gapsMin: number[], tokens = 100_000): string[] {
  let now = 0;
  let size = tokens;
  // The context grows 2,000 tokens a call.
  return [policy.choose(now, size), ...gapsMin.map((g) => policy.choose((now += g * MIN), (size += 2_000)))];
}

describe("CacheTtlPolicy", () => {
  it("stays at 5 minutes while calls come quickly", () => {
    expect(new Set(ttls(new CacheTtlPolicy(), Array<number>(20).fill(0.5)))).toEqual(new Set(["5m"]));
  });

  it("moves to an hour at a rewrite once the gaps seen say it pays four times over", () => {
    // A person answering every 15 minutes between bursts of quick calls: a third of the gaps expire a 5-minute entry.
    const pattern = [0.5, 0.5, 15];
    const seen = ttls(
      new CacheTtlPolicy(),
      Array.from({ length: 30 }, (_, i) => pattern[i % 3]!),
    );
    expect(seen.slice(0, 20)).toEqual(Array<string>(20).fill("5m"));
    expect(seen.at(-1)).toBe("1h");
  });

  it("stays at 5 minutes when long gaps are rare", () => {
    const gaps = Array.from({ length: 60 }, (_, i) => (i % 20 === 19 ? 15 : 0.5));
    expect(new Set(ttls(new CacheTtlPolicy(), gaps))).toEqual(new Set(["5m"]));
  });

  it("moves to an hour when one gap in eight expires a 5-minute entry, and stays when one in twenty does", () => {
    const every = (n: number) => Array.from({ length: 60 }, (_, i) => (i % n === n - 1 ? 15 : 0.5));
    expect(ttls(new CacheTtlPolicy(), every(8)).at(-1)).toBe("1h");
    expect(ttls(new CacheTtlPolicy(), every(20)).at(-1)).toBe("5m");
  });

  it("keeps the TTL a user fixed", () => {
    expect(new Set(ttls(new CacheTtlPolicy("1h"), Array<number>(5).fill(0.5)))).toEqual(new Set(["1h"]));
    expect(new Set(ttls(new CacheTtlPolicy("5m"), Array<number>(30).fill(15)))).toEqual(new Set(["5m"]));
  });

  it("changes TTL only where the prefix is written anyway", () => {
    const policy = new CacheTtlPolicy();
    const pattern = [0.5, 0.5, 15];
    ttls(
      policy,
      Array.from({ length: 30 }, (_, i) => pattern[i % 3]!),
    );
    let now = 24 * 60 * MIN;
    expect(policy.choose(now, 160_000)).toBe("1h");
    expect(policy.choose((now += MIN), 1_000)).toBe("1h"); // a smaller context alone is no rewrite: the TTL stays
    policy.rewrite();
    expect(policy.choose(now + MIN, 1_000)).toBe("5m"); // after a compaction to a tiny context, 5 minutes pay
  });
});
