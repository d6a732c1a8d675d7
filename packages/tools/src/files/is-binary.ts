/** A NUL byte in the first 8 KiB is git's own test for binary content. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8_192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
