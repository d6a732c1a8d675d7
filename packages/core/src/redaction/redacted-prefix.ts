import { redactSecrets } from "@hatloop/context";

/** Beyond this, a single secret is not expected to reach back before a cut. */
const LOOK_PAST = 1_000;

/**
 * The first `length` characters of `text`, redacted before it is cut: a secret that the cut went
 * through would leave a fragment that no pattern recognises any more, anywhere downstream.
 */
export function redactedPrefix(text: string, length: number): string {
  return redactSecrets(text.slice(0, length + LOOK_PAST)).slice(0, length);
}
