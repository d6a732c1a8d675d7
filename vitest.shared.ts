import { defineConfig } from "vitest/config";

// Tests read workspace packages from source through the "@hatloop/source" export condition,
// so a unit test never runs against a stale build.
//
// Tests assert behaviour, not speed: timing claims belong in `pnpm bench`. No test or hook carries a
// limit of its own; this one generous ceiling only makes sure a genuinely hung test still ends, on a
// loaded 2-core machine as on a fast one.
const HUNG_MS = 10 * 60_000;

export function sharedConfig(overrides: { fileParallelism?: boolean } = {}) {
  return defineConfig({
    ssr: { resolve: { conditions: ["@hatloop/source"] } },
    resolve: { conditions: ["@hatloop/source"] },
    test: {
      include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts", "test/**/*.test.tsx"],
      testTimeout: HUNG_MS,
      hookTimeout: HUNG_MS,
      fileParallelism: overrides.fileParallelism ?? true,
      maxWorkers: 2,
      env: { FORCE_COLOR: "0" },
    },
  });
}
