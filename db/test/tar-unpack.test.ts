import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unpackTarGz } from "../src/embedded/tar-unpack.js";

// The seed's unpacker against archives made by GNU tar: every file's bytes as they were (sizes off the
// 512-byte and 4 KiB grids, files across the 64 KiB chunks it reads), zeros left as holes, the `last`
// file written after the others, and an archive that would write outside its directory refused.

const ZEROS = Buffer.alloc(64 * 1024);

function archive(files: Record<string, Buffer>, options: { absoluteNames?: boolean } = {}): { path: string; source: string } {
  const root = mkdtempSync(join(tmpdir(), "hatloop-tar-"));
  const source = join(root, "source");
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(source, name, ".."), { recursive: true });
    writeFileSync(join(source, name), body);
  }
  const path = join(root, "archive.tar.gz");
  const names = Object.keys(files);
  execFileSync("tar", ["-czf", path, ...(options.absoluteNames ? ["-P"] : []), ...names], { cwd: source });
  return { path, source };
}

describe("unpackTarGz", () => {
  it("writes every file as it was, with its zero blocks as holes and `last` last", async () => {
    const sparse = Buffer.concat([ZEROS, randomBytes(5000), ZEROS, ZEROS, randomBytes(3), ZEROS]);
    const files = {
      PG_VERSION: Buffer.from("17\n"),
      "base/1/1249": randomBytes(200_000),
      "base/1/empty": Buffer.alloc(0),
      "pg_wal/segment": sparse,
      "global/odd": randomBytes(513),
      "global/zeros": Buffer.alloc(20_000),
    };
    const { path } = archive(files);
    const dir = mkdtempSync(join(tmpdir(), "hatloop-untar-"));
    await unpackTarGz(path, dir, "PG_VERSION");
    for (const [name, body] of Object.entries(files)) expect(readFileSync(join(dir, name)).equals(body), name).toBe(true);
    // Holes: the 64 KiB runs of zeros take no blocks on disk (a file system without holes would keep them).
    const blocks = (name: string) => statSync(join(dir, name)).blocks * 512;
    expect(blocks("pg_wal/segment")).toBeLessThan(sparse.length - 2 * ZEROS.length);
    expect(blocks("global/zeros")).toBe(0);
    // PG_VERSION is written after the rest: the newest change of all.
    const times = Object.keys(files).map((name) => statSync(join(dir, name)).mtimeMs);
    expect(statSync(join(dir, "PG_VERSION")).mtimeMs).toBe(Math.max(...times));
  });

  it("writes over the files of an unpacking cut short", async () => {
    const files = { PG_VERSION: Buffer.from("17\n"), "base/1/a": randomBytes(10_000) };
    const { path } = archive(files);
    const dir = mkdtempSync(join(tmpdir(), "hatloop-untar-"));
    mkdirSync(join(dir, "base/1"), { recursive: true });
    writeFileSync(join(dir, "base/1/a"), randomBytes(50_000)); // longer than the archive's
    await unpackTarGz(path, dir, "PG_VERSION");
    expect(readFileSync(join(dir, "base/1/a")).equals(files["base/1/a"])).toBe(true);
  });

  it("refuses an archive without the `last` file, having written no `last`", async () => {
    const { path } = archive({ "base/1/a": randomBytes(100) });
    const dir = mkdtempSync(join(tmpdir(), "hatloop-untar-"));
    await expect(unpackTarGz(path, dir, "PG_VERSION")).rejects.toThrow(/has no PG_VERSION/);
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(false);
  });

  it("refuses a path outside its directory", async () => {
    const root = mkdtempSync(join(tmpdir(), "hatloop-tar-"));
    mkdirSync(join(root, "inside"));
    writeFileSync(join(root, "outside"), "x");
    const path = join(root, "archive.tar.gz");
    execFileSync("tar", ["-czPf", path, "../outside"], { cwd: join(root, "inside") });
    const dir = join(mkdtempSync(join(tmpdir(), "hatloop-untar-")), "data");
    mkdirSync(dir);
    await expect(unpackTarGz(path, dir, "PG_VERSION")).rejects.toThrow(/outside its directory: \.\.\/outside/);
    expect(existsSync(join(dir, "..", "outside"))).toBe(false);
  });
});
