// @ts-check
import comments from "@eslint-community/eslint-plugin-eslint-comments/configs";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The house rule: core and context talk to the outside through ports, so no UI, database driver, SDK or file system.
const outsideWorld = ["ink", "ink-testing-library", "react", "drizzle-orm", "postgres", "@electric-sql/pglite", "@anthropic-ai/sdk"];
const boundary = {
  paths: ["node:fs", "node:fs/promises", "fs", "fs/promises", ...outsideWorld].map((name) => ({
    name,
    message: "packages/core and packages/context import no UI, database driver, SDK or file system; go through a port.",
  })),
  patterns: [
    { group: outsideWorld.map((name) => `${name}/*`), message: "packages/core and packages/context import no UI, database driver or SDK." },
  ],
};

// Which workspace packages each package may import (sources and tests): only those below it. This is
// what is true today; a new arrow is a decision, made here.
const layers = {
  "packages/context": { name: "@hatloop/context", imports: [] },
  "packages/core": { name: "@hatloop/core", imports: ["@hatloop/context"] },
  "packages/model": { name: "@hatloop/model", imports: ["@hatloop/context", "@hatloop/core"] },
  "packages/tools": { name: "@hatloop/tools", imports: ["@hatloop/context", "@hatloop/core"] },
  db: { name: "@hatloop/db", imports: ["@hatloop/context", "@hatloop/core"] },
  "packages/tui": { name: "@hatloop/tui", imports: ["@hatloop/core"] },
  "packages/console": { name: "@hatloop/console", imports: ["@hatloop/core"] },
  bench: { name: "@hatloop/bench", imports: ["@hatloop/context", "@hatloop/core", "@hatloop/db", "@hatloop/tools", "@hatloop/tui"] },
  "apps/cli": {
    name: "@hatloop/cli",
    imports: [
      "@hatloop/context",
      "@hatloop/core",
      "@hatloop/db",
      "@hatloop/model",
      "@hatloop/tools",
      "@hatloop/tui",
      "@hatloop/console",
      "@hatloop/prompts",
    ],
  },
};
const workspacePackages = [...Object.values(layers).map((layer) => layer.name), "@hatloop/prompts"];

/** A no-restricted-imports pattern: every workspace package `dir` may not import, itself included. */
function layerBoundary(/** @type {keyof typeof layers} */ dir) {
  const { name, imports } = layers[dir];
  const banned = workspacePackages.filter((other) => !imports.includes(other));
  return {
    regex: `^(${banned.join("|")})(/|$)`,
    message: `${name} imports ${imports.length ? `only ${imports.join(", ")}` : "no other workspace package"} (the layers in eslint.config.js); inside a package, import relatively.`,
  };
}

// Tests and what only tests use; the rest is product code.
const testFiles = ["**/*.test.ts", "**/*.test.tsx", "**/test/**", "**/test-support/**", "**/vitest.config.ts"];

// House conventions as selectors (see google-gemini/gemini-cli's eslint.config.js for the idea).
const noErrorCast = {
  selector: "TSAsExpression[typeAnnotation.typeName.name='Error']",
  message:
    "`as Error` checks nothing: a catch gets unknown, and anything can be thrown. Use errorMessage(error) from @hatloop/context for its message, errorLine(error) from @hatloop/core for the one line hatloop stores and prints, or narrow with `instanceof Error`.",
};
const noIdSlice = {
  selector: "CallExpression[callee.property.name='slice'][arguments.length=2][arguments.0.value=0][arguments.1.value=8]",
  message:
    "Shorten an id with shortId(id) from @hatloop/core (packages/core/src/text/format.ts), not .slice(0, 8). Not an id? Name the count.",
};

// Inside packages/core, arrows point down: loop/ (the iteration) over checkpoint/ and context/ (what
// a checkpoint and context management make of the state), over state/ (the loop state, its changes
// and the one reducer), over the ports and the rest. And one way to change anything: a step hands a
// Change to loop/commit.ts, the write path, which alone writes the store (store-writes.ts), applies
// the state (state/apply.ts) and emits events (change-events.ts).
const coreSrc = "packages/core/src";
const coreTests = ["**/*.test.ts", "**/test-support/**"];
const up = (...folders) => ({
  group: folders.map((f) => `../${f}/*`),
  message: "packages/core/src: a folder does not import the layers above it.",
});
const writePath = {
  apply: {
    group: ["**/state/apply.js"],
    message: "Only the loop's write path (loop/commit.ts) applies changes to the loop state: hand a Change to commit().",
  },
  commit: { group: ["**/loop/commit.js"], message: "Only the loop commits changes; other folders hand data back to it." },
  parts: {
    group: ["./store-writes.js", "./change-events.js"],
    message: "Store writes and change events are the write path's own parts: go through commit().",
  },
};
const writePathFiles = ["commit", "store-writes", "change-events"].map((f) => `${coreSrc}/loop/${f}.ts`);
/** What each part of packages/core may not import (one no-restricted-imports setting per file: later blocks replace it). */
const coreLayers = [
  { files: [`${coreSrc}/loop/**/*.ts`], ignores: writePathFiles, not: [writePath.apply, writePath.parts] },
  { files: [`${coreSrc}/checkpoint/**/*.ts`], not: [up("loop", "context"), writePath.apply, writePath.commit] },
  { files: [`${coreSrc}/context/**/*.ts`], not: [up("loop", "checkpoint"), writePath.apply, writePath.commit] },
  {
    files: [`${coreSrc}/state/**/*.ts`],
    ignores: [`${coreSrc}/state/apply.ts`],
    not: [up("loop", "checkpoint", "context", "persist"), writePath.apply],
  },
  { files: [`${coreSrc}/state/apply.ts`], not: [up("loop", "checkpoint", "context", "persist")] },
  {
    files: [`${coreSrc}/{hats,signals,ports,store,prompt,text,redaction,persist}/**/*.ts`],
    not: [up("loop", "checkpoint", "context", "state"), writePath.apply, writePath.commit],
  },
  { files: [`${coreSrc}/*.ts`], not: [writePath.apply, writePath.commit] },
];
/** The package boundary and the given patterns (one no-restricted-imports setting per file: later blocks replace it). */
const restrict = (...patterns) => [
  "error",
  { paths: boundary.paths, patterns: [...boundary.patterns, layerBoundary("packages/core"), ...patterns] },
];
const storeWrite =
  "CallExpression[callee.type='MemberExpression'][callee.object.type='MemberExpression'][callee.object.property.name=/^(sessions|messages|checkpoints|events|checklist|memories)$/][callee.property.name=/^(create|update|answer|addUsage|delete|append|prune|upsert|setStatus|add|updateContent|supersede|acquireLease|renewLease|releaseLease)$/]";
const writeRules = {
  "no-restricted-syntax": [
    "error",
    noErrorCast,
    noIdSlice,
    {
      selector: storeWrite,
      message: "Only the loop's write path (loop/store-writes.ts, through commit()) writes the store from packages/core.",
    },
    {
      selector: "CallExpression[callee.property.name='emit']",
      message: "Only the loop's write path emits events: commit() a change, or report() a happening.",
    },
    { selector: "MemberExpression[property.name='sinks']", message: "Only the loop's write path reaches the event sinks." },
  ],
};

export default tseslint.config(
  {
    ignores: ["**/dist/**", "apps/cli/out/**", "**/node_modules/**", "**/coverage/**", "apps/cli/demo/sample-repo/**", "bench/results/**"],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  {
    // Every eslint-disable says why (`-- reason`); the eslint-enable that closes a block needs none.
    plugins: comments.recommended.plugins,
    rules: { "@eslint-community/eslint-comments/require-description": ["error", { ignore: ["eslint-enable"] }] },
  },
  js.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // Type information from one program of every package's sources and tests (tsconfig.eslint.json).
      // TypeScript's project service made a program per package and per package's tests, eighteen, each
      // reading the sources of every package it imports: a cold run took 146 s of CPU and 2.2 GB, one
      // program 94 s and 1.5 GB, with the same findings (docs/lint.md#caches-and-what-a-lint-costs).
      parserOptions: { project: "./tsconfig.eslint.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unnecessary-condition": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // `as` only (never <T>x); an object literal may be asserted, as a discriminated event built from its (type, data) pair is.
      "@typescript-eslint/consistent-type-assertions": ["error", { assertionStyle: "as", objectLiteralTypeAssertions: "allow" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // Off: ports and callbacks are Promise-returning; an async body without await is how they return
      // (and reject) a promise rather than throw synchronously.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "**/test/**/*.ts", "**/test-support/**/*.ts"],
    rules: {
      // Off in tests: vitest's asymmetric matchers (expect.any, expect.objectContaining) and JSON.parse of
      // a command's output are typed any, and the assertion that follows is what checks the shape.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Off in tests: hooks guard against a setup that failed (`await store?.close()` on a variable the
      // type says is always set) so that the setup's error is the one reported.
      "@typescript-eslint/no-unnecessary-condition": "off",
      // Off in tests: they stringify a tool result's content (a string or blocks) to search it, and assert
      // the row shape drizzle's execute() returns, which differs per driver.
      "@typescript-eslint/no-base-to-string": "off",
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
    },
  },
  // Package layers, sources and tests alike.
  ...Object.keys(layers).map((dir) => ({
    files: [`${dir}/**/*.{ts,tsx}`],
    rules: { "no-restricted-imports": ["error", { patterns: [layerBoundary(/** @type {keyof typeof layers} */ (dir))] }] },
  })),
  // core's and context's product code: also no UI, database driver, SDK or file system (these options
  // replace the layer's, so it is listed again).
  .../** @type {const} */ (["packages/core", "packages/context"]).map((dir) => ({
    files: [`${dir}/**/*.{ts,tsx}`],
    ignores: testFiles,
    rules: { "no-restricted-imports": ["error", { paths: boundary.paths, patterns: [...boundary.patterns, layerBoundary(dir)] }] },
  })),
  {
    files: ["**/*.{ts,tsx}"],
    ignores: [...testFiles, "packages/context/**"],
    rules: { "no-restricted-syntax": ["error", noErrorCast, noIdSlice] },
  },
  {
    // context imports no other package (so not shortId), and shortens no id: its slices are counts of keywords.
    files: ["packages/context/**/*.{ts,tsx}"],
    ignores: testFiles,
    rules: { "no-restricted-syntax": ["error", noErrorCast] },
  },
  ...coreLayers.map(({ files, ignores = [], not }) => ({
    files,
    ignores: [...coreTests, ...ignores],
    rules: { "no-restricted-imports": restrict(...not) },
  })),
  {
    files: [`${coreSrc}/**/*.ts`],
    ignores: [
      ...coreTests,
      `${coreSrc}/loop/commit.ts`,
      `${coreSrc}/loop/store-writes.ts`,
      `${coreSrc}/emitter.ts`,
      // Not the loop's state: the events table's writer (a sink), the store's own implementations and
      // its redacting wrapper, and the repository's knowledge facts the context hook keeps across sessions.
      `${coreSrc}/persist/event-persister.ts`,
      `${coreSrc}/store/**`,
      `${coreSrc}/redaction/redacting-store.ts`,
      `${coreSrc}/context/facts.ts`,
    ],
    rules: writeRules,
  },
  {
    // Config files outside every tsconfig: linted without type information.
    files: ["**/vitest.config.ts", "vitest.shared.ts", "db/drizzle.config.ts", "**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
  },
);
