import { describe, expect, it } from "vitest";
import { extractDecisionFromResponse } from "./decision-extract.js";
import { parseStatement } from "./fact-statement.js";
import { extractFactCandidates } from "./facts-extract.js";
import { reconcileFacts } from "./facts-reconcile.js";
import { captureDecision, mergeDecisions } from "./items.js";
import { settingChanges } from "./setting.js";

describe("settings the agent changed", () => {
  it("are read from lines that start with a change verb, value without end punctuation", () => {
    expect(settingChanges("Lowering it to REFRESH_SKEW_MS=5000: with 30 s of skew the test refreshed twice.")).toEqual([
      { name: "REFRESH_SKEW_MS", value: "5000" },
    ]);
    expect(settingChanges("I'll set NODE_OPTIONS=--max-old-space-size=4096 for the build.")).toEqual([
      { name: "NODE_OPTIONS", value: "--max-old-space-size=4096" },
    ]);
    expect(settingChanges("Switching to API_URL=http://localhost:4020/v2, because v1 is gone.")).toEqual([
      { name: "API_URL", value: "http://localhost:4020/v2" },
    ]);
  });

  it("are not read from statements, commands or lower-case assignments", () => {
    expect(settingChanges("Imports are enqueued on QUEUE_NAME=imports-v1.")).toEqual([]);
    expect(settingChanges("Running CI=true pnpm test to see the failure.")).toEqual([]);
    expect(settingChanges("Set the value with foo=bar in the shell.")).toEqual([]);
    expect(settingChanges("Set XFOO_BAR=1")).toEqual([{ name: "XFOO_BAR", value: "1" }]);
    expect(settingChanges("Use the option a.B_C=1 from the config")).toEqual([]);
  });

  it("make a decision even without another marker, and a fact keyed by the name", () => {
    const text = "The skew was too large.\n\nLowering it to REFRESH_SKEW_MS=5000: with 30 s of skew the fake-timer test refreshed twice.";
    expect(extractDecisionFromResponse(text)).toBe(
      "Lowering it to REFRESH_SKEW_MS=5000: with 30 s of skew the fake-timer test refreshed twice.",
    );
    expect(extractDecisionFromResponse("Understood. Moved the mock server to MOCK_PORT=4020, because 4010 clashes.")).toBe(
      "Moved the mock server to MOCK_PORT=4020, because 4010 clashes.",
    );
    expect(parseStatement("Reducing it to HIGH_WATER_MARK=16: at 64 the heap peaked at 310 MB.")).toEqual({
      key: "high-water-mark",
      value: "16",
      type: "config",
    });
  });

  it("supersede the decision that set the same name: the current value only, under the old id", () => {
    const running = mergeDecisions(
      [],
      [
        { what: "Setting REFRESH_SKEW_MS=30000 so tokens are refreshed 30 s before they expire.", when: null },
        { what: "Use a single-flight promise for refresh().", when: null },
      ],
    );
    const merged = mergeDecisions(running, [
      { what: "Lowering it to REFRESH_SKEW_MS=5000: the fake-timer test refreshed twice.", when: null },
    ]);
    expect(merged.map((d) => [d.id, d.what])).toEqual([
      ["d2", "Use a single-flight promise for refresh()."],
      ["d1", "Lowering it to REFRESH_SKEW_MS=5000: the fake-timer test refreshed twice."],
    ]);
    const captured = captureDecision(running, "Raising `REFRESH_SKEW_MS=10000`, five seconds was too tight.", null);
    expect(captured.map((d) => d.what)).toEqual([
      "Use a single-flight promise for refresh().",
      "Raising `REFRESH_SKEW_MS=10000`, five seconds was too tight.",
    ]);
    // A different setting is a different decision.
    expect(mergeDecisions(running, [{ what: "Set MOCK_PORT=4020 for the mock server.", when: null }])).toHaveLength(3);
  });

  it("supersede the fact that held the old value", () => {
    const old = extractFactCandidates([{ role: "assistant", content: "Setting QUEUE_NAME=imports-v1 for the importer." }]);
    const existing = old.map((f, i) => ({ id: String(i + 1), key: f.key, type: f.type, content: f.content }));
    const newer = extractFactCandidates([
      { role: "assistant", content: "Switching to QUEUE_NAME=imports-v2, because the v1 consumer buffers whole files." },
    ]);
    expect(reconcileFacts(existing, newer)).toEqual([expect.objectContaining({ op: "SUPERSEDE", id: "1" })]);
  });
});
