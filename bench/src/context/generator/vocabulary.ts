import type { Rng } from "../../util/rng.js";

// Filler that looks like a TypeScript service: identifiers, paths, code lines and narration. None
// of these words can form a planted fact's needle, so a fact is only ever found where it was planted.

const VERBS = [
  "load",
  "parse",
  "build",
  "resolve",
  "fetch",
  "apply",
  "format",
  "merge",
  "collect",
  "validate",
  "render",
  "encode",
  "decode",
  "update",
  "create",
  "read",
  "write",
  "flush",
  "emit",
  "track",
];
const NOUNS = [
  "User",
  "Account",
  "Session",
  "Payload",
  "Header",
  "Record",
  "Batch",
  "Config",
  "Route",
  "Handler",
  "Cache",
  "Entry",
  "Metric",
  "Report",
  "Query",
  "Result",
  "Option",
  "Context",
  "Event",
  "Job",
];
const LOCALS = [
  "value",
  "entry",
  "items",
  "result",
  "next",
  "current",
  "options",
  "input",
  "output",
  "rows",
  "state",
  "buffer",
  "index",
  "count",
  "keys",
  "lookup",
  "pending",
  "target",
];
const TYPES = [
  "string",
  "number",
  "boolean",
  "Buffer",
  "Date",
  "unknown",
  "Record<string, string>",
  "readonly string[]",
  "Map<string, number>",
];
const MODULES = [
  "http",
  "store",
  "util",
  "metrics",
  "jobs",
  "users",
  "billing",
  "routes",
  "config",
  "logging",
  "queue",
  "search",
  "admin",
  "notify",
];
const FILES = [
  "index",
  "client",
  "server",
  "handler",
  "types",
  "schema",
  "mapper",
  "cache",
  "errors",
  "retry",
  "format",
  "service",
  "worker",
  "helpers",
  "options",
];
const NARRATION = [
  "Let me look at how {a} is wired before changing anything.",
  "Checking where {a} is called from.",
  "The {a} path looks fine; the problem is probably further down.",
  "Reading {a} to confirm the current behaviour.",
  "That matches what I expected from {a}.",
  "Searching for other callers of {a}.",
  "Running the focused tests again after the change to {a}.",
  "Looking at the error handling around {a}.",
  "I want to see the types that {a} returns.",
  "Comparing this with the older implementation in {a}.",
];

export function identifier(rng: Rng): string {
  return `${rng.pick(VERBS)}${rng.pick(NOUNS)}`;
}

function local(rng: Rng): string {
  return rng.pick(LOCALS);
}

/** A path under src/ or test/ that no scenario uses for a planted fact. */
export function fillerPath(rng: Rng, test = false): string {
  const module = rng.pick(MODULES);
  const file = rng.pick(FILES);
  return test ? `test/${module}/${file}.test.ts` : `src/${module}/${file}.ts`;
}

export function narration(rng: Rng, about: string): string {
  return rng.pick(NARRATION).replace("{a}", about);
}

/** One plausible line of TypeScript at the given indent. */
export function codeLine(rng: Rng, indent: number): string {
  const pad = "  ".repeat(indent);
  const id = identifier(rng);
  const v = local(rng);
  switch (rng.int(0, 9)) {
    case 0:
      return `${pad}export async function ${id}(${v}: ${rng.pick(TYPES)}): Promise<${rng.pick(NOUNS)}> {`;
    case 1:
      return `${pad}const ${v} = await ${local(rng)}.${id}(${local(rng)}, { limit: ${rng.int(1, 500)} });`;
    case 2:
      return `${pad}if (!${v}) throw new Error(\`${id} failed for \${${local(rng)}}\`);`;
    case 3:
      return `${pad}return ${v}.map((${local(rng)}) => ${id}(${local(rng)}));`;
    case 4:
      return `${pad}// ${rng.pick(NOUNS).toLowerCase()} ${rng.pick(VERBS)}s the ${rng.pick(NOUNS).toLowerCase()} before it is ${rng.pick(VERBS)}d`;
    case 5:
      return `${pad}for (const ${v} of ${local(rng)}) ${local(rng)}.push(${id}(${v}));`;
    case 6:
      return `${pad}}`;
    case 7:
      return `${pad}import { ${id} } from "../${rng.pick(MODULES)}/${rng.pick(FILES)}.js";`;
    case 8:
      return `${pad}${v}.${rng.pick(LOCALS)} = ${rng.pick(["null", "true", "false", String(rng.int(0, 9999)), `"${rng.pick(LOCALS)}"`])};`;
    default:
      return `${pad}const ${v}: ${rng.pick(TYPES)} = ${id}(${local(rng)});`;
  }
}

/** `lines` lines of code, indentation wandering between 0 and 3. */
export function codeBlock(rng: Rng, lines: number): string[] {
  const out: string[] = [];
  let indent = 0;
  for (let i = 0; i < lines; i++) {
    out.push(codeLine(rng, indent));
    indent = Math.max(0, Math.min(3, indent + rng.int(-1, 1)));
  }
  return out;
}
