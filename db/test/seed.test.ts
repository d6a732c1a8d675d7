import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isFresh, unpackSeed } from "../src/embedded/seed.js";
import { openStore } from "../src/store.js";
import { pgliteTemplate } from "../src/testing.js";
import { newSession } from "./support/session.js";

// A new embedded database starts from the seed (an empty, migrated database) instead of initdb; one
// whose unpacking was cut short is unpacked again; a database that exists is never touched.

const freshDir = () => join(mkdtempSync(join(tmpdir(), "hatloop-seed-")), "pglite");

describe("the embedded database's seed", () => {
  it("starts a new database from the seed: migrated, empty, usable, and reopened as it was", async () => {
    await pgliteTemplate(); // makes sure a seed exists (the build writes one; tests without a build write their own)
    const dir = freshDir();
    expect(isFresh(dir)).toBe(true);
    const store = await openStore({ url: dir });
    expect(isFresh(dir)).toBe(false);
    expect(await store.sessions.list()).toEqual([]);
    const { id } = await store.sessions.create(newSession());
    await store.close();
    const again = await openStore({ url: dir });
    expect((await again.sessions.list()).map((s) => s.id)).toEqual([id]);
    await again.close();
  });

  it("unpacks again over an unpacking cut short (no PG_VERSION yet), and the result opens", async () => {
    await pgliteTemplate();
    const dir = freshDir();
    expect(await unpackSeed(dir)).toBe(true);
    // Killed mid-way: PG_VERSION (written last) and some of the files are missing.
    rmSync(join(dir, "PG_VERSION"));
    rmSync(join(dir, "global"), { recursive: true });
    expect(isFresh(dir)).toBe(true);
    const store = await openStore({ url: dir });
    expect(readdirSync(join(dir, "global")).length).toBeGreaterThan(10);
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);
    expect(await store.sessions.list()).toEqual([]);
    await store.close();
  });
});
