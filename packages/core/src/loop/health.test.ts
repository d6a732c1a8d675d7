import { describe, expect, it } from "vitest";
import { initialHealth, type HealthNotice, type HealthState } from "../state/health-state.js";
import { checkCall, checkGate, checkProgress, checkResult } from "./health.js";

/** The checks with their counters threaded from one to the next, as the loop commits them. */
class LoopHealth {
  state: HealthState = initialHealth();
  beforeCall(signature: string) {
    const check = checkCall(this.state, signature);
    this.state = check.health;
    return check;
  }
  afterCall(isError: boolean, errorText: string | null): HealthNotice[] {
    return this.take(checkResult(this.state, isError, errorText));
  }
  afterGate(passed: boolean): HealthNotice[] {
    return this.take(checkGate(this.state, passed));
  }
  afterIteration(progressed: boolean): HealthNotice[] {
    return this.take(checkProgress(this.state, progressed));
  }
  private take(check: { health: HealthState; notices: HealthNotice[] }): HealthNotice[] {
    this.state = check.health;
    return check.notices;
  }
}

describe("loop health", () => {
  it("hints at the third identical call, refuses from the fifth, stops after three refusals", () => {
    const health = new LoopHealth();
    const levels = Array.from({ length: 7 }, () => health.beforeCall('read_file:{"path":"a"}'));
    expect(levels.map((l) => l.refuse !== null)).toEqual([false, false, false, false, true, true, true]);
    expect(levels[2]!.notices[0]).toMatchObject({ kind: "repetition", level: "hint" });
    expect(levels[6]!.notices[0]).toMatchObject({ kind: "repetition", level: "stop" });
  });

  it("resets repetition when a different call comes in between", () => {
    const health = new LoopHealth();
    for (let i = 0; i < 4; i++) health.beforeCall("a");
    health.beforeCall("b");
    expect(health.beforeCall("a").refuse).toBeNull();
  });

  it("escalates consecutive failures and resets on a success", () => {
    const health = new LoopHealth();
    const kinds = (n: ReturnType<LoopHealth["afterCall"]>) => n.filter((x) => x.kind === "consecutive_failures").map((x) => x.level);
    expect(kinds(health.afterCall(true, "e1"))).toEqual([]);
    expect(kinds(health.afterCall(true, "e2"))).toEqual([]);
    expect(kinds(health.afterCall(true, "e3"))).toEqual(["warn"]);
    expect(kinds(health.afterCall(true, "e4"))).toEqual(["hint"]);
    health.afterCall(false, null);
    expect(kinds(health.afterCall(true, "e5"))).toEqual([]);
  });

  it("notices the same error coming back", () => {
    const health = new LoopHealth();
    health.afterCall(true, "ENOENT: no such file");
    health.afterCall(false, null);
    health.afterCall(true, "ENOENT: no such file");
    const third = health.afterCall(true, "ENOENT: no such file");
    expect(third.find((n) => n.kind === "same_error")).toMatchObject({ level: "hint" });
  });

  it("stops after repeated quality blocks and iterations without progress", () => {
    const health = new LoopHealth();
    const gates = Array.from({ length: 6 }, () => health.afterGate(false));
    expect(gates.map((g) => g[0]?.level ?? null)).toEqual([null, null, "hint", "hint", "hint", "stop"]);
    const idle = Array.from({ length: 15 }, () => health.afterIteration(false));
    expect(idle[5]![0]?.level).toBe("warn");
    expect(idle[7]![0]?.level).toBe("hint");
    expect(idle[14]![0]?.level).toBe("stop");
    expect(health.afterIteration(true)).toEqual([]);
    expect(health.state.idleIterations).toBe(0);
  });
});
