import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { brokerSocketPath } from "../src/paths.js";
import { openStore, type DbStore } from "../src/store.js";

// The process holding an embedded database serves any SQL on a unix socket: only its own user may
// connect, whatever the umask. The socket is 0600 in a directory of its own that is 0700.

let store: DbStore | null = null;
let umask: number | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
  if (umask !== null) process.umask(umask);
  umask = null;
});

describe("the embedded database's query socket", () => {
  it("is owner-only (0600, in a 0700 directory) even under umask 000", async () => {
    umask = process.umask(0o000);
    const dir = join(mkdtempSync(join(tmpdir(), "hatloop-socket-")), "pglite");
    store = await openStore({ url: dir });
    expect(store.database.role()).toBe("owner");
    const socket = brokerSocketPath(dir);
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(socket)).uid).toBe(process.getuid!());
  });
});
