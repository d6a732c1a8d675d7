import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { beforeAll, describe, expect, it } from "vitest";
import type { Execute } from "../src/embedded/broker.js";
import { DatabaseDamagedError, findDamage } from "../src/embedded/damage.js";
import { MANIFEST_FILE } from "../src/embedded/manifest.js";
import { queryPglite } from "../src/embedded/pglite-query.js";
import { openDb } from "../src/open.js";
import { openStore } from "../src/store.js";
import { newSession } from "./support/session.js";

// A damaged embedded database must say so instead of answering "No sessions yet": its relation
// files are truncated here, as a full disk, a bad copy or a bad restore would leave them.

let sound: string;

beforeAll(async () => {
  sound = join(mkdtempSync(join(tmpdir(), "hatloop-damage-")), "pglite");
  const store = await openStore({ url: sound });
  await store.sessions.create(newSession({ id: "s1" }));
  // Several pages of messages, so a file can lose part of itself: under TOAST's 2 kB and not compressible.
  const text = randomBytes(750).toString("hex");
  for (let seq = 1; seq <= 12; seq++) {
    await store.messages.append("s1", [
      {
        seq,
        iteration: 1,
        hat: "planner",
        kind: "conversation",
        tokenEstimate: 1,
        message: { role: "user", content: [{ type: "text", text: `${seq} ${text}` }] },
      },
    ]);
  }
  await store.checkpoints.append("s1", {
    reason: "start",
    iteration: 0,
    hat: "planner",
    scratchpad: "",
    context: {},
    contextTokens: 0,
    lastError: null,
    failedAt: null,
    recoveryHint: null,
    usage: {},
    state: {},
    handoff: null,
    gitCommit: null,
  });
  await store.sessions.update("s1", { iteration: 2 });
  await store.close();
});

/** A copy of the sound database with one relation file cut to `bytes` (negative: that many fewer). */
function damaged(relation: string, bytes: number, options: { keepManifest?: boolean } = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), "hatloop-damaged-")), "pglite");
  cpSync(sound, dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")) as {
    relations: Record<string, { file: string; bytes: number }>;
  };
  const { file, bytes: size } = manifest.relations[relation]!;
  truncateSync(join(dir, file), bytes < 0 ? size + bytes : bytes);
  if (options.keepManifest === false) rmSync(join(dir, MANIFEST_FILE));
  return dir;
}

async function openError(dir: string): Promise<DatabaseDamagedError> {
  const error = await openStore({ url: dir }).then(
    async (store) => {
      await store.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatabaseDamagedError);
  return error as DatabaseDamagedError;
}

describe("a damaged embedded database", () => {
  it("refuses to open with a truncated sessions file: says what is damaged and how to recover", async () => {
    const dir = damaged("sessions", 0);
    const manifest = readFileSync(join(dir, MANIFEST_FILE), "utf8");
    const error = await openError(dir);
    expect(error.message).toMatch(
      new RegExp(`^the embedded database at ${dir} is damaged: sessions \\(base/\\d+/\\d+\\) is 0 bytes, was 8192 on `),
    );
    expect(error.message).toContain(`Restore ${dir} from a backup, or move it aside (mv ${dir} ${dir}.damaged)`);
    // Nothing was changed: the evidence is kept, and the next process says the same.
    expect(readFileSync(join(dir, MANIFEST_FILE), "utf8")).toBe(manifest);
    await openError(dir);
  });

  it("refuses a messages file that lost part of itself", async () => {
    const error = await openError(damaged("messages", -8192));
    expect(error.findings).toEqual([expect.stringMatching(/^messages \(base\/\d+\/\d+\) is \d+ bytes, was \d+ on /)]);
  });

  it("finds the damage without a manifest too, from rows that lost their session or sessions that lost their messages", async () => {
    expect((await openError(damaged("sessions", 0, { keepManifest: false }))).findings).toEqual([
      "messages holds rows of 1 session(s) missing from the sessions table (e.g. s1)",
      "checkpoints holds rows of 1 session(s) missing from the sessions table (e.g. s1)",
    ]);
    expect((await openError(damaged("messages", 0, { keepManifest: false }))).findings).toEqual([
      expect.stringMatching(/^session s1 has run but has no messages|^a table cannot be read/),
    ]);
  });

  it("hatloop db check: opens it anyway and lists everything, reading every table whole", async () => {
    const database = await openDb({ url: damaged("messages", 0), allowDamaged: true });
    try {
      const { findings, deep } = await database.checkDamage!();
      expect(deep).toBe(true);
      expect(findings).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^messages \(base\/\d+\/\d+\) is 0 bytes/),
          expect.stringMatching(/^messages: could not read block/),
        ]),
      );
    } finally {
      await database.close();
    }
  });

  it("opens a sound database, and checking it costs a few stat calls", async () => {
    const database = await openDb({ url: sound, allowDamaged: true });
    try {
      expect(await database.checkDamage!()).toEqual({ findings: [], deep: true });
    } finally {
      await database.close();
    }
    const pg = await PGlite.create(sound);
    try {
      const queries: string[] = [];
      const counting: Execute = (sql, params, mode) => {
        queries.push(sql);
        return queryPglite(pg, sql, params, mode);
      };
      expect(await findDamage(counting, sound)).toEqual([]);
      // The files are compared with the manifest: no table is read (the check never went back to SQL).
      expect(
        queries.filter((sql) => /\b(from|join)\s+"?(sessions|messages|checkpoints|events|checklist_items|memories)\b/i.test(sql)),
      ).toEqual([]);
    } finally {
      await pg.close();
    }
  });
});
