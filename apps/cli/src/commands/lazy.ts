/**
 * A command's action whose module is imported when the command runs, and only then: commander parses
 * and checks the arguments first, so `--help` and usage errors never load it. Each `load` holds a
 * literal `import("./x.js")`, which the bundle (scripts/bundle.mjs) turns into a chunk of its own.
 */
export function lazy<Args extends unknown[]>(
  load: () => Promise<(...args: Args) => Promise<void> | void>,
): (...args: Args) => Promise<void> {
  return async (...args) => {
    const action = await load();
    await action(...args);
  };
}
