import { describe, expect, it } from "vitest";
import { capitalize } from "./text.js";
import { extractDecisionFromResponse } from "./decision-extract.js";

describe("capitalize", () => {
  it("capitalises plain words and leaves paths, identifiers and commands as written", () => {
    expect(capitalize("use zod for config")).toBe("Use zod for config");
    expect(capitalize("src/slugify.js: strip edge dashes")).toBe("src/slugify.js: strip edge dashes");
    expect(capitalize("useState is wrong here")).toBe("useState is wrong here");
    expect(capitalize("npm test must pass first")).toBe("npm test must pass first");
  });

  it("keeps a path at the start of an extracted decision intact", () => {
    expect(extractDecisionFromResponse("- src/auth.ts: keep the token cache, because tests depend on it.")).toMatch(/^src\/auth\.ts: keep/);
  });
});
