/** Polls `check` (never a fixed sleep) until it returns a value; fails with `what` after a generous limit. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  limitMs = 5 * 60_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const found = await check();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
