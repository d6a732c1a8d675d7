// Bundles the CLI (tsc's output in out/) into dist/: one entry, bin.js, and a chunk per lazily
// imported command or library. Node then parses a few files instead of resolving and reading ~950
// modules, which was most of every command's start-up (docs/data.md, "Start-up and memory").
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const repo = fileURLToPath(new URL("../../..", import.meta.url));
const outdir = `${root}dist`;

/** Marks a resolution that wants the file itself, whatever import the bundle would write for it. */
const WHERE_IT_IS = Symbol("where it is");

/** A file's path as seen from a chunk of dist/ (every chunk sits at its top), with forward slashes. */
const fromOutdir = (path) => relative(outdir, path).split("\\").join("/");

/** A file's URL as seen from a chunk of dist/. */
const fromChunk = (path) => `new URL(${JSON.stringify(fromOutdir(path))}, import.meta.url).href`;

/**
 * import.meta.url and import.meta.resolve keep meaning the file they were written in: code finds its
 * assets (migrations, the demo, the seed, the warm holder's script, PGlite's files) next to its own
 * module or package, not next to the chunk it ends up in.
 */
const ownImportMeta = {
  name: "own-import-meta",
  setup(b) {
    b.onLoad({ filter: /\.(js|mjs)$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta.")) return undefined;
      let code = source.replaceAll("import.meta.url", fromChunk(args.path));
      for (const [call, , specifier] of source.matchAll(/import\.meta\.resolve\((["'])([^"']+)\1\)/g)) {
        const found = await b.resolve(specifier, { kind: "import-statement", resolveDir: dirname(args.path), pluginData: WHERE_IT_IS });
        if (found.errors.length > 0) throw new Error(`${args.path}: cannot resolve ${specifier}`);
        code = code.replaceAll(call, fromChunk(found.path));
      }
      // A computed specifier would be resolved from the chunk, silently somewhere else.
      if (code.includes("import.meta.resolve(")) throw new Error(`${args.path}: import.meta.resolve of a computed specifier`);
      return { contents: code, loader: "js" };
    });
  },
};

/** PGlite stays a file of its own (it finds its WebAssembly and data files next to itself), imported by path. */
const pgliteByPath = {
  name: "pglite-by-path",
  setup(b) {
    b.onResolve({ filter: /^@electric-sql\/pglite/ }, async (args) => {
      if (args.pluginData === WHERE_IT_IS) return undefined;
      const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: WHERE_IT_IS });
      return { path: fromOutdir(found.path), external: true };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { bin: `${root}out/bin.js` },
  outdir,
  // meta.json names files from the package, wherever the bundle is built from (`pnpm build` here,
  // `pnpm demo` and `pnpm link-hatloop` at the repository's root).
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  mainFields: ["module", "main"],
  // React and its reconciler ship development builds behind this test; the CLI runs the production
  // one (bin.ts sets it for what is not bundled), so the development code is not even parsed.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  logOverride: { "assign-to-define": "silent" },
  // Ink's devtools are optional, and not installed.
  external: ["react-devtools-core"],
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: { js: 'import { createRequire as __hatloopRequire } from "node:module"; const require = __hatloopRequire(import.meta.url);' },
  plugins: [ownImportMeta, pgliteByPath],
  metafile: true,
  sourcemap: "linked",
  logLevel: "warning",
});
await writeFile(`${outdir}/meta.json`, JSON.stringify(result.metafile));
console.log(`bundled ${Object.keys(result.metafile.inputs).length} modules into ${relative(repo, outdir)}`);
