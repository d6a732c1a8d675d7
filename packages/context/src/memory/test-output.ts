// Test names in test-runner output (vitest/jest, pytest, go test, cargo, mocha-style). Only the
// shapes of per-test result lines are recognised; summaries ("3 failed") carry no names.

const FAIL_PATTERNS: readonly RegExp[] = [
  /^\s*(?:FAIL|×|✗|✕)\s+(.+?)(?:\s+\[[^\]]*\])?(?:\s+\d+(?:\.\d+)?\s*m?s)?\s*$/gm, // vitest / jest
  /^\s*●\s+(.+?)\s*$/gm, // jest failure headings
  /^FAILED\s+(\S+::\S+)/gm, // pytest
  /^\s*--- FAIL:\s+(\S+)/gm, // go test
  /^test\s+(\S+)\s+\.\.\.\s+FAILED\s*$/gm, // cargo test
];

const PASS_PATTERNS: readonly RegExp[] = [
  /^\s*(?:✓|√|✔)\s+(.+?)(?:\s+\d+(?:\.\d+)?\s*m?s)?\s*$/gm,
  /^\s*PASS\s+(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?\s*$/gm,
  /^(\S+::\S+)\s+PASSED/gm,
  /^PASSED\s+(\S+::\S+)/gm,
  /^\s*--- PASS:\s+(\S+)/gm,
  /^test\s+(\S+)\s+\.\.\.\s+ok\s*$/gm,
];

function namesMatching(output: string, patterns: readonly RegExp[]): string[] {
  const names: string[] = [];
  for (const pattern of patterns) {
    for (const match of output.matchAll(pattern)) {
      const name = match[1]?.trim().replace(/\s+\(\d+(?:\.\d+)?\s*m?s\)$/, "");
      if (name && name !== "Console" && name.length <= 300 && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

export function failingTests(output: string): string[] {
  return namesMatching(output, FAIL_PATTERNS);
}

export function passingTests(output: string): string[] {
  return namesMatching(output, PASS_PATTERNS);
}
