import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../src/config.js";
import { CONFIG_DOC, configRows, updateConfigDoc } from "../scripts/gen-config-docs.mjs";

// docs/configuration.md's table of keys is generated from the schema; this keeps it from going stale.
describe("docs/configuration.md", () => {
  it("is what `pnpm docs:config` writes from the schema (run it after changing packages/core/src/config.ts)", () => {
    const text = readFileSync(CONFIG_DOC, "utf8");
    expect(text).toBe(updateConfigDoc(text, configSchema));
  });

  it("documents every key, with its default and its environment variable", () => {
    const rows = configRows(configSchema);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    expect(byKey.get("context.warnPct")).toMatchObject({ env: "HATLOOP_CONTEXT__WARN_PCT", default: "`80`" });
    expect(byKey.get("maxRuntime")).toMatchObject({ type: "duration", default: "`4h`" });
    expect(byKey.get("maxCostUsd")?.default).toBe("unset");
    expect(rows.every((r) => r.description.length > 0)).toBe(true);
  });
});
