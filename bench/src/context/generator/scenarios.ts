// The planted facts of each scenario, written as a coding agent and its user would say them. A
// session picks one scenario by seed; every needle is distinctive, so it can only be found where
// the generator put it (the filler vocabulary never produces these phrases).

interface Decision {
  text: string;
  needles: string[];
}

interface Superseded {
  id: string;
  oldText: string;
  oldNeedle: string;
  newText: string;
  newNeedle: string;
  /** File the value lives in, and the code line before and after. */
  file: string;
  oldCode: string;
  newCode: string;
}

interface Incidental {
  id: string;
  needle: string;
  /** A tool call whose output carries the value (the value is only ever in tool output). */
  tool: "read_file" | "run_command";
  input: Record<string, string>;
  /** A line of the output containing the needle. */
  line: string;
}

export interface Scenario {
  name: string;
  goal: string;
  goalNeedles: string[];
  taskConstraint: string;
  taskConstraintNeedles: string[];
  steerConstraint: string;
  steerConstraintNeedles: string[];
  decisions: Decision[];
  superseded: Superseded[];
  incidentals: Incidental[];
  failingTest: { file: string; name: string; error: string; command: string };
  nextStep: { text: string; needle: string };
  /** Files the agent edits and creates (besides filler paths). */
  files: string[];
  checklist: string[];
  testCommand: string;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "auth-refresh",
    goal: "Fix the token refresh race in the API client: parallel requests that get a 401 must trigger exactly one refresh.",
    goalNeedles: ["exactly one refresh"],
    taskConstraint: "Do not edit anything under migrations/ - the schema is frozen for the release.",
    taskConstraintNeedles: ["migrations/", "frozen for the release"],
    steerConstraint: "Keep the public signature of createClient(options) unchanged; three other services import it.",
    steerConstraintNeedles: ["createClient(options)", "three other services"],
    decisions: [
      {
        text: "Decision: use a single-flight promise for refresh(), because parallel 401s must share one network call.",
        needles: ["single-flight promise", "share one network call"],
      },
      {
        text: "I'll keep the refresh token in memory only, not in localStorage, because the security review flagged XSS exposure.",
        needles: ["in memory only", "XSS exposure"],
      },
      {
        text: "Going with vi.useFakeTimers in the refresh tests, since real timeouts made the CI job take 40 seconds.",
        needles: ["vi.useFakeTimers", "40 seconds"],
      },
      {
        text: "Decision: retry a request at most once after a refresh, because a second 401 means the refresh token itself is revoked.",
        needles: ["at most once after a refresh", "refresh token itself is revoked"],
      },
    ],
    superseded: [
      {
        id: "refresh-skew",
        oldText: "Setting REFRESH_SKEW_MS=30000 so tokens are refreshed 30 s before they expire.",
        oldNeedle: "REFRESH_SKEW_MS=30000",
        newText: "Lowering it to REFRESH_SKEW_MS=5000: with 30 s of skew the fake-timer test refreshed twice.",
        newNeedle: "REFRESH_SKEW_MS=5000",
        file: "src/auth/config.ts",
        oldCode: "export const REFRESH_SKEW = 30_000;",
        newCode: "export const REFRESH_SKEW = 5_000;",
      },
      {
        id: "mock-port",
        oldText: "The mock auth server for the tests listens on MOCK_PORT=4010.",
        oldNeedle: "MOCK_PORT=4010",
        newText: "Moved the mock server to MOCK_PORT=4020, because 4010 clashes with the metrics sidecar.",
        newNeedle: "MOCK_PORT=4020",
        file: "test/auth/mock-server.ts",
        oldCode: "const port = Number(process.env.PORT ?? 4_010);",
        newCode: "const port = Number(process.env.PORT ?? 4_020);",
      },
    ],
    incidentals: [
      {
        id: "token-ttl",
        needle: "TOKEN_TTL_SECONDS = 900",
        tool: "read_file",
        input: { path: "src/auth/constants.ts" },
        line: "export const TOKEN_TTL_SECONDS = 900;",
      },
      {
        id: "staging-host",
        needle: "auth-staging.internal",
        tool: "run_command",
        input: { command: 'curl -sI "$AUTH_STAGING_URL/health"' },
        line: "HTTP/2 200 from auth-staging.internal (edge eu-west-1)",
      },
      {
        id: "fixture-user",
        needle: "usr_7f3a9c",
        tool: "read_file",
        input: { path: "test/fixtures/users.json" },
        line: '  { "id": "usr_7f3a9c", "role": "admin", "tokenVersion": 3 },',
      },
    ],
    failingTest: {
      file: "test/auth/refresh.test.ts",
      name: "shares one refresh between parallel 401s",
      error: "AssertionError: expected 2 to be 1 // Object.is equality",
      command: "pnpm vitest run test/auth/refresh.test.ts",
    },
    nextStep: {
      text: "Next: make the retry interceptor await the in-flight refresh promise before replaying the request.",
      needle: "await the in-flight refresh promise",
    },
    files: [
      "src/auth/refresh.ts",
      "src/auth/interceptor.ts",
      "src/auth/config.ts",
      "src/auth/token-store.ts",
      "test/auth/refresh.test.ts",
      "test/auth/mock-server.ts",
      "src/http/client.ts",
    ],
    checklist: [
      "Reproduce the double refresh in a test",
      "Share one refresh between parallel requests",
      "Keep tokens out of persistent storage",
      "Retry once after a refresh",
      "Document the refresh flow",
    ],
    testCommand: "pnpm vitest run test/auth",
  },
  {
    name: "csv-import",
    goal: "Make the CSV import stream rows instead of loading the whole file, so that a 2 GB upload stays under 200 MB of memory.",
    goalNeedles: ["stays under 200 MB of memory"],
    taskConstraint: "Never change the public REST routes under /api/v1 - mobile clients pin them.",
    taskConstraintNeedles: ["/api/v1", "mobile clients pin them"],
    steerConstraint: "Don't add new dependencies; security has to approve each one.",
    steerConstraintNeedles: ["new dependencies", "security has to approve"],
    decisions: [
      {
        text: "Decision: parse with a Transform stream over node:readline, because it keeps backpressure without a new package.",
        needles: ["Transform stream over node:readline", "keeps backpressure"],
      },
      {
        text: "I'll commit one transaction per batch instead of per row, since per-row inserts took 11 minutes for a million rows.",
        needles: ["one transaction per batch", "11 minutes"],
      },
      {
        text: "Going with a quarantine table for rejected rows, because support needs to download them later.",
        needles: ["quarantine table", "download them later"],
      },
      {
        text: "Decision: validate the header row before the first batch, because a bad header must fail fast with a 422.",
        needles: ["validate the header row", "fail fast with a 422"],
      },
    ],
    superseded: [
      {
        id: "high-water-mark",
        oldText: "Setting HIGH_WATER_MARK=64 rows for the parser stream.",
        oldNeedle: "HIGH_WATER_MARK=64",
        newText: "Reducing it to HIGH_WATER_MARK=16: at 64 the heap peaked at 310 MB on the 2 GB fixture.",
        newNeedle: "HIGH_WATER_MARK=16",
        file: "src/import/stream.ts",
        oldCode: "const highWaterMark = 64;",
        newCode: "const highWaterMark = 16;",
      },
      {
        id: "queue-name",
        oldText: "Imports are enqueued on QUEUE_NAME=imports-v1.",
        oldNeedle: "QUEUE_NAME=imports-v1",
        newText: "Switching to QUEUE_NAME=imports-v2, because the v1 consumer still buffers whole files.",
        newNeedle: "QUEUE_NAME=imports-v2",
        file: "src/import/queue.ts",
        oldCode: 'export const queue = "imports" + "-v1";',
        newCode: 'export const queue = "imports" + "-v2";',
      },
    ],
    incidentals: [
      {
        id: "max-upload",
        needle: "MAX_UPLOAD_BYTES = 2147483648",
        tool: "read_file",
        input: { path: "src/import/limits.ts" },
        line: "export const MAX_UPLOAD_BYTES = 2147483648;",
      },
      {
        id: "bucket",
        needle: "s3://imports-staging-eu",
        tool: "run_command",
        input: { command: 'aws s3 ls "$IMPORT_BUCKET" --summarize' },
        line: "Total Objects: 412 in s3://imports-staging-eu",
      },
      {
        id: "fixture-file",
        needle: "customers-1m.csv",
        tool: "read_file",
        input: { path: "test/fixtures/README.md" },
        line: "- customers-1m.csv: one million rows, 3 percent with a missing email",
      },
    ],
    failingTest: {
      file: "test/import/report.test.ts",
      name: "rejects rows with a missing email",
      error: "AssertionError: expected 'quarantined' to be 'rejected' // Object.is equality",
      command: "pnpm vitest run test/import/report.test.ts",
    },
    nextStep: {
      text: "Next: map quarantined rows to the rejected status in the import report before the summary is built.",
      needle: "map quarantined rows to the rejected status",
    },
    files: [
      "src/import/stream.ts",
      "src/import/batch-writer.ts",
      "src/import/queue.ts",
      "src/import/report.ts",
      "src/import/header.ts",
      "test/import/stream.test.ts",
      "test/import/report.test.ts",
    ],
    checklist: [
      "Stream the parser",
      "Batch the inserts",
      "Quarantine rejected rows",
      "Validate headers up front",
      "Measure memory on the 2 GB fixture",
    ],
    testCommand: "pnpm vitest run test/import",
  },
];
