// For tests only (`@hatloop/core/testing`), shared by every package's suite.

/**
 * Whether a test that needs `what` (a tool or kernel feature of the machine: tmux, unprivileged user
 * namespaces, Postgres's server binaries) can run here. Without it a developer's run skips the test;
 * under CI (`CI` set, as .ci/run sets it) it throws instead, so a CI machine that lacks it fails
 * loudly rather than going green with the tests skipped.
 */
export function requireOrSkip(available: boolean, what: string): boolean {
  if (available) return true;
  const ci = process.env.CI;
  if (ci && ci !== "false" && ci !== "0") {
    throw new Error(`CI: this machine lacks ${what}; under CI the tests that need it fail instead of skipping`);
  }
  return false;
}
