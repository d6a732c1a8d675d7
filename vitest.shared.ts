import { defineConfig } from "vitest/config";

// Tests read workspace packages from source through the "@hatloop/source" export condition,
// so a unit test never runs against a stale build.
export function sharedConfig(overrides: { testTimeout?: number; fileParallelism?: boolean } = {}) {
  return defineConfig({
    ssr: { resolve: { conditions: ["@hatloop/source"] } },
    resolve: { conditions: ["@hatloop/source"] },
    test: {
      include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts", "test/**/*.test.tsx"],
      testTimeout: overrides.testTimeout ?? 30_000,
      hookTimeout: 60_000,
      fileParallelism: overrides.fileParallelism ?? true,
      maxWorkers: 2,
      env: { FORCE_COLOR: "0" },
    },
  });
}
