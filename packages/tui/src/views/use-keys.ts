import { useInput } from "ink";
import { splitKeys, type KeyEvent } from "./split-keys.js";

/**
 * Ink's useInput, one call per key: several keys read at once (typed fast, pasted, scripted) come
 * to `onKey` one by one, in order (see split-keys.ts). `onKey` must read the state the previous key
 * left, not the last render's: the views keep theirs in a ref that each key moves.
 */
export function useKeys(onKey: (event: KeyEvent) => void, isActive: boolean): void {
  useInput(
    (input, key) => {
      for (const event of splitKeys(input, key)) onKey(event);
    },
    { isActive },
  );
}
