import { readFile } from "node:fs/promises";
import { setFlagsFromString } from "node:v8";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { isFresh, readSeed, unpackSeed } from "./seed.js";

// How hatloop starts PGlite, measured (`pnpm bench startup`, docs/data.md "Start-up and memory"):
// - V8 compiles PGlite's 9 MB of WebAssembly with Liftoff, its baseline compiler, and never tiers
//   up: the optimising tier took ~0.5 s of CPU and ~50 MiB per process, and hatloop's queries are too
//   small for it to pay back (the loop's overhead is unchanged, see the runtime bench). Set before
//   the first module is compiled; it only concerns WebAssembly.
// - shared_buffers is 16 MB instead of PGlite's 128 MB: they are resident from the start (each MB
//   is a MB of RSS), and a session's working set is far smaller; the OS page cache holds the rest.
// - the compiled modules are kept for the process, so each later PGlite (tests, templates) skips
//   compiling them again.
setFlagsFromString("--liftoff-only");

// Node has WebAssembly; this package's TypeScript libs do not describe it, so a compiled module is
// an opaque object here.
interface CompiledModules {
  pgliteWasmModule: object;
  initdbWasmModule: object;
}
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;

const START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

let modules: Promise<CompiledModules> | null = null;

function compiledModules(): Promise<CompiledModules> {
  modules ??= (async () => {
    const compile = async (name: string) => wasm.compile(await readFile(new URL(name, import.meta.resolve("@electric-sql/pglite"))));
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([compile("pglite.wasm"), compile("initdb.wasm")]);
    return { pgliteWasmModule, initdbWasmModule };
  })();
  return modules;
}

/**
 * A PGlite on `dataDir` (in memory without one), started as described above. A database that does not
 * exist yet starts from the seed when there is one (seed.ts), unless `fromSeed` is false.
 */
export async function startPglite(
  dataDir?: string,
  options: Pick<PGliteOptions, "loadDataDir"> & { fromSeed?: boolean } = {},
): Promise<PGlite> {
  const compiling = compiledModules();
  const seeded = options.fromSeed !== false && !options.loadDataDir;
  // On disk the seed is unpacked into the directory (see unpackSeed), while V8 compiles the modules on
  // its own threads; in memory PGlite loads it.
  if (seeded && dataDir && isFresh(dataDir)) await unpackSeed(dataDir);
  const compiled = (await compiling) as Pick<PGliteOptions, keyof CompiledModules>;
  const loadDataDir = options.loadDataDir ?? (seeded && !dataDir ? (readSeed() ?? undefined) : undefined);
  return PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    ...compiled,
    startParams: START_PARAMS,
  });
}
