import { randomBytes } from "node:crypto";
import { openStore } from "@hatloop/db";

// Secrets of every kind hatloop redacts, fresh for each run (none is real), in the shapes the
// scanners and the redactor know, and the helpers that look for them in what hatloop kept.

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function random(length: number, alphabet = BASE62): string {
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** Random base62 with a lower-case letter, an upper-case letter and a digit (what looks random). */
function mixed(length: number): string {
  for (;;) {
    const s = random(length);
    if (/[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s)) return s;
  }
}

export interface PlantedSecrets {
  anthropicKey: string;
  githubToken: string;
  awsKeyId: string;
  dbPassword: string;
  entropyToken: string;
  privateKey: string;
  /** The random part of every secret (the private key's body lines one by one): not even a piece of one may be found anywhere. */
  needles: Record<string, string>;
  /** All of them in prose, one per line (the private key as its block). */
  prose: string;
  /** All of them on one line (what a person types). */
  oneLine: string;
}

export function plantSecrets(): PlantedSecrets {
  const keyLines = [mixed(64), mixed(64), mixed(40)];
  const s = {
    anthropicKey: `sk-ant-api03-${mixed(48)}`,
    githubToken: `ghp_${mixed(36)}`,
    awsKeyId: `AKIA${random(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`,
    dbPassword: `Pw${mixed(12)}`,
    entropyToken: mixed(40),
    privateKey: `-----BEGIN PRIVATE KEY-----\n${keyLines.join("\n")}\n-----END PRIVATE KEY-----`,
  };
  const dbUrl = `postgres://app:${s.dbPassword}@db.internal:5432/app`;
  return {
    ...s,
    needles: {
      anthropicKey: s.anthropicKey.slice("sk-ant-api03-".length),
      githubToken: s.githubToken.slice("ghp_".length),
      awsKeyId: s.awsKeyId.slice("AKIA".length),
      dbPassword: s.dbPassword,
      entropyToken: s.entropyToken,
      ...Object.fromEntries(keyLines.map((line, i) => [`privateKey line ${i + 1}`, line])),
    },
    prose: `anthropic ${s.anthropicKey}\ngithub ${s.githubToken}\naws ${s.awsKeyId}\ndatabase ${dbUrl}\nsession token ${s.entropyToken}\n${s.privateKey}\n`,
    oneLine: `anthropic ${s.anthropicKey}, github ${s.githubToken}, aws ${s.awsKeyId}, database ${dbUrl}, session token ${s.entropyToken}, key -----BEGIN PRIVATE KEY----- ${keyLines.join(" ")} -----END PRIVATE KEY-----`,
  };
}

/** Length of the pieces looked for: a secret cut short is still a leak. */
const PIECE = 12;

/** Which secrets `text` holds, whole or any PIECE characters of one, by name. */
export function leaks(text: string, secrets: PlantedSecrets): string[] {
  const found = (needle: string) =>
    Array.from({ length: needle.length - PIECE + 1 }, (_, i) => needle.slice(i, i + PIECE)).some((piece) => text.includes(piece));
  return Object.entries(secrets.needles)
    .filter(([, needle]) => found(needle))
    .map(([name]) => name);
}

/** Every row of every table of hatloop's schema, as JSON text. */
export async function dumpDatabase(url: string): Promise<Record<string, string>> {
  const store = await openStore({ url });
  try {
    const db = store.database.db;
    const tables = (await db.execute(
      "select table_name from information_schema.tables where table_schema = 'public'",
    )) as unknown as Array<{ table_name: string }>;
    const rowsOf = async (table: string) => JSON.stringify(await db.execute(`select row_to_json(t)::text as row from "${table}" t`));
    const names = (Array.isArray(tables) ? tables : (tables as { rows: Array<{ table_name: string }> }).rows).map((t) => t.table_name);
    return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await rowsOf(name)] as const)));
  } finally {
    await store.close();
  }
}
