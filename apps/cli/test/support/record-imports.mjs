import { appendFileSync } from "node:fs";
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

// `node --import ./record-imports.mjs ...` appends the URL of every module the process loads to the
// file named by RECORD_IMPORTS. Loaded with --import it registers itself as the loader's hooks,
// which run on their own thread.

if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (process.env.RECORD_IMPORTS) appendFileSync(process.env.RECORD_IMPORTS, `${resolved.url}\n`);
  return resolved;
}
