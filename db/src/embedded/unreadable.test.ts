import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatabaseDamagedError } from "./damage.js";
import { MANIFEST_FILE } from "./manifest.js";
import { corruptionIn, startFailure } from "./unreadable.js";

// What is named damage and what is not: only Postgres's own "data corrupted" and a start that
// aborted on an existing directory are; a permission refused or a new directory's failure is not
// (apps/cli/test/embedded-faults-e2e.test.ts damages a real directory end to end).

/** A data directory with the files every cluster has, and a manifest naming one relation file. */
function cluster(): string {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-unreadable-"));
  mkdirSync(join(dir, "global"));
  mkdirSync(join(dir, "pg_wal"));
  writeFileSync(join(dir, "PG_VERSION"), "17\n");
  writeFileSync(join(dir, "global", "pg_control"), "");
  writeFileSync(join(dir, "pg_wal", "000000010000000000000001"), "");
  writeFileSync(
    join(dir, MANIFEST_FILE),
    JSON.stringify({ version: 1, writtenAt: "", relations: { events: { file: "base/5/16484", bytes: 8192 } } }),
  );
  return dir;
}

describe("damage the manifest cannot see", () => {
  it("a corrupt page is named by its table, without 'nothing was changed'", () => {
    const dir = cluster();
    const error = Object.assign(new Error('invalid page in block 3 of relation "base/5/16484"'), { code: "XX001" });
    const named = corruptionIn(dir, error);
    expect(named).toBeInstanceOf(DatabaseDamagedError);
    expect((named as Error).message).toBe(
      `the embedded database at ${dir} is damaged: events (base/5/16484) cannot be read (invalid page in block 3 of relation "base/5/16484"). Restore ${dir} from a backup, or move it aside (mv ${dir} ${dir}.damaged) to start an empty one`,
    );
  });

  it("other query errors stay as they are", () => {
    const error = Object.assign(new Error('relation "nope" does not exist'), { code: "42P01" });
    expect(corruptionIn(cluster(), error)).toBe(error);
  });

  it("an abort while starting on an existing directory is damage; a refused permission or a new directory is not", () => {
    const dir = cluster();
    const aborted = startFailure(dir, new Error("Aborted(). Build with -sASSERTIONS for more info."), true);
    expect((aborted as Error).message).toMatch(/is damaged: PostgreSQL cannot start on its files \(Aborted\(\)\)\. Nothing was changed\./);
    const refused = Object.assign(new Error("EACCES: permission denied, open 'global/pg_control'"), { code: "EACCES" });
    expect(startFailure(dir, refused, true)).toBe(refused);
    const fresh = new Error("Aborted()");
    expect(startFailure(dir, fresh, false)).toBe(fresh);
  });
});
