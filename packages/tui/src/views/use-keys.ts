import { useInput } from "ink";
import { splitKeys, type KeyEvent } from "./split-keys.js";

/**
 * Ink's useInput, one call per key: several keys read at once (typed fast, pasted, scripted) come
 * to `onKey` one by one, in order (see split-keys.ts), `followed` when more keys of the same read
 * come after it. `onKey` must read the state the previous key left, not the last render's: the
 * views keep theirs in a ref that each key moves.
 */
export function useKeys(onKey: (event: KeyEvent, followed: boolean) => void, isActive: boolean): void {
  useInput(
    (input, key) => {
      const events = splitKeys(input, key);
      events.forEach((event, i) => onKey(event, i < events.length - 1));
    },
    { isActive },
  );
}
