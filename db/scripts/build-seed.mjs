// Writes the embedded database's seed beside dist/ (see src/embedded/seed.ts), unless the current one
// is there already. Run by the build and by `pnpm demo`.
import { startPglite } from "../dist/embedded/pglite-start.js";
import { readSeed, writeSeed } from "../dist/embedded/seed.js";

if (!readSeed()) {
  const started = Date.now();
  await writeSeed(() => startPglite(undefined, { fromSeed: false }));
  console.error(`hatloop: embedded database seed written (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
