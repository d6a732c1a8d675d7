// Detection of long secret-looking strings that no vendor pattern names (random API keys, session
// secrets, base64 credentials). The hard part is what to leave alone: git SHAs, UUIDs, lockfile
// integrity hashes, file paths and identifiers are long too. They are recognised by shape first;
// what remains must look random (mixed character classes, high Shannon entropy, long unbroken runs).

const MIN_LENGTH = 32;

/** Candidates: runs of base64/base64url/hex characters at least MIN_LENGTH long. */
export const LONG_TOKEN = /(?<![A-Za-z0-9+/_=.-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_=-])/g;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$/i;
const DIGEST_PREFIX = /^(?:sha1|sha224|sha256|sha384|sha512|md5)[-_]/i;
// Lengths of common digests in hex: md5/32 is deliberately absent (32-hex API keys are common).
const DIGEST_HEX_LENGTHS = new Set([40, 56, 64, 96, 128]);
const HASH_CONTEXT = /(?:sha\d*|commit|hash|digest|checksum|integrity|revision|rev|object|blob|tree|etag)[\s:=#@"'`(/-]*$/i;

function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function classCount(token: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(token)).length;
}

/** Longest run of letters and digits: identifiers and paths break into short words. */
function longestAlnumRun(token: string): number {
  // A loop, not Math.max(...parts): a token of millions of parts would overflow the call stack.
  return token.split(/[^A-Za-z0-9]+/).reduce((longest, part) => Math.max(longest, part.length), 0);
}

/** Path-like: several "/"-separated segments that each read like a name. */
function looksLikePath(token: string): boolean {
  const parts = token.split("/").filter(Boolean);
  return parts.length >= 2 && parts.every((p) => p.length <= 40 && /^[A-Za-z0-9_-]+$/.test(p) && classCount(p) <= 2);
}

/**
 * True when a LONG_TOKEN match looks like a secret. `before` is the text just before the match, used
 * to spare hashes that are labelled as such ("commit 3f2a...", "integrity sha512-...").
 */
export function isHighEntropySecret(token: string, before: string): boolean {
  const bare = token.replace(/=+$/, "");
  if (bare.length < MIN_LENGTH || UUID.test(bare) || DIGEST_PREFIX.test(bare)) return false;
  if (/(?:sha\d+|md5)-$/i.test(before)) return false;
  if (HEX.test(bare)) {
    if (DIGEST_HEX_LENGTHS.has(bare.length) || HASH_CONTEXT.test(before)) return false;
    return /[0-9]/.test(bare) && /[a-f]/i.test(bare) && shannonEntropy(bare) >= 3.2;
  }
  if (looksLikePath(bare) || !/[0-9]/.test(bare)) return false;
  if (classCount(bare) < 3 || longestAlnumRun(bare) < 16) return false;
  return shannonEntropy(bare) >= 4.0;
}
