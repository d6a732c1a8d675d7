import { cpSync, mkdtempSync, openSync, readdirSync, rmSync, truncateSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDb, openStore } from "@hatloop/db";
import { runHatloop, startHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";
import { writeScenario } from "./support/scenario.js";

// The embedded database under faults, through the real binary: the process holding it killed with
// SIGKILL while another run goes through it, and its files damaged after a run: relation files
// truncated, a page overwritten in place, the control file or the write-ahead log deleted.

function setup(steps: number, delayMs: number) {
  const { repo, root } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-embedded-faults-"));
  writeFileSync(join(home, "none.json"), "{}");
  const scenario = writeScenario(root, steps, delayMs);
  const run = (task: string) => ["run", task, "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--json"];
  return { home, run, env: { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") } };
}

/** Every session's stored log is whole: seqs 1..n without gaps or repeats. */
async function expectIntactLogs(home: string) {
  const store = await openStore({ url: join(home, "pglite") });
  try {
    const sessions = await store.sessions.list();
    for (const session of sessions) {
      const seqs = (await store.messages.range(session.id, 1, 100_000)).map((m) => m.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    return sessions;
  } finally {
    await store.close();
  }
}

describe("the embedded database", () => {
  it("keeps a second run going when the run holding the database is killed with SIGKILL", async () => {
    const { home, run, env } = setup(30, 20);
    const holder = startHatloop(run("the holder"), env);
    await holder.waitFor((e) => e.type === "tool.result" && e.iteration === 2);
    const second = startHatloop(run("the second run"), env);
    await second.waitFor((e) => e.type === "tool.result" && e.iteration === 3);
    holder.kill("SIGKILL");
    const ran = await second.done;
    expect(ran.code, ran.stderr).toBe(0);
    const sessions = await expectIntactLogs(home);
    const killed = sessions.find((s) => s.task === "the holder")!;
    const resumed = await runHatloop(["resume", killed.id.slice(0, 8), "--json"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await expectIntactLogs(home)).map((s) => s.status)).toEqual(["completed", "completed"]);
  });

  describe("damaged after a run", () => {
    let sound: { home: string; sessionId: string; files: Record<string, string> };

    beforeAll(async () => {
      const { home, run, env } = setup(3, 0);
      const ran = await runHatloop(run("write the notes"), env);
      expect(ran.code, ran.stderr).toBe(0);
      const database = await openDb({ url: join(home, "pglite") });
      try {
        const rows = (await database.db.execute(
          "select pg_relation_filepath('sessions') as sessions, pg_relation_filepath('messages') as messages, (select id from sessions) as id",
        )) as unknown as Array<Record<string, string>>;
        const { id, ...files } = rows[0]!;
        sound = { home, sessionId: id!, files };
      } finally {
        await database.close();
      }
    });

    /** A copy of the sound home, damaged by `harm` (given its PGlite directory). */
    function damaged(harm: (dir: string) => void) {
      const home = mkdtempSync(join(tmpdir(), "hatloop-damaged-"));
      cpSync(sound.home, home, { recursive: true });
      harm(join(home, "pglite"));
      return { home, dir: join(home, "pglite"), env: { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") } };
    }

    /** A copy of the sound home with one relation file emptied. */
    const truncated = (relation: string) => damaged((dir) => truncateSync(join(dir, sound.files[relation]!), 0));

    /** The one line every kind of damage ends with: where the directory is and what to do. */
    const remedy = (dir: string) => `Restore ${dir} from a backup, or move it aside (mv ${dir} ${dir}.damaged) to start an empty one`;

    it("ls says the sessions table is damaged and how to recover, instead of 'No sessions yet'", async () => {
      const { home, env } = truncated("sessions");
      const ls = await runHatloop(["ls"], env);
      expect(ls.code).toBe(1);
      expect(ls.stdout).toBe("");
      const dir = join(home, "pglite");
      const [line, ...more] = ls.stderr.split("\n");
      expect(more).toEqual([""]);
      expect(line).toMatch(
        new RegExp(
          `^hatloop: the embedded database at ${dir} is damaged: sessions \\(${sound.files.sessions}\\) is 0 bytes, was \\d+ on [\\d-]+ [\\d:]+\\. Nothing was changed\\. `,
        ),
      );
      expect(line).toMatch(/Restore \S+ from a backup, or move it aside \(mv \S+ \S+\.damaged\) to start an empty one$/);
      const check = await runHatloop(["db", "check"], env);
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(`  - sessions (${sound.files.sessions}) is 0 bytes`);
      expect(check.stdout).toContain("messages holds rows of 1 session(s) missing from the sessions table");
    });

    it("show says the messages table is damaged, instead of '0 messages stored'", async () => {
      const { env } = truncated("messages");
      const show = await runHatloop(["show", sound.sessionId.slice(0, 8)], env);
      expect(show.code).toBe(1);
      expect(show.stdout).toBe("");
      expect(show.stderr).toMatch(/^hatloop: the embedded database at .* is damaged: messages \(base\/\d+\/\d+\) is 0 bytes, was \d+ on /);
    });

    it("a page overwritten in place (same size, so the manifest cannot tell): damaged, in one line, not 'Failed query'", async () => {
      const { dir, env } = damaged((pglite) => {
        const fd = openSync(join(pglite, sound.files.messages!), "r+");
        writeSync(fd, Buffer.alloc(24, 0xde), 0, 24, 0); // the first page's header
        closeSync(fd);
      });
      const show = await runHatloop(["show", sound.sessionId.slice(0, 8)], env);
      expect(show.code).toBe(1);
      expect(show.stdout).toBe("");
      expect(show.stderr).toBe(
        `hatloop: the embedded database at ${dir} is damaged: messages (${sound.files.messages}) cannot be read (invalid page in block 0 of relation "${sound.files.messages}"). ${remedy(dir)}\n`,
      );
    });

    it("the control file deleted: damaged, in one line, not 'Aborted(). Build with -sASSERTIONS'", async () => {
      const { dir, env } = damaged((pglite) => rmSync(join(pglite, "global", "pg_control")));
      const ls = await runHatloop(["ls"], env);
      expect(ls.code).toBe(1);
      expect(ls.stderr).toBe(
        `hatloop: the embedded database at ${dir} is damaged: global/pg_control (its control file) is missing. Nothing was changed. ${remedy(dir)}\n`,
      );
    });

    it("the write-ahead log deleted: damaged, in one line", async () => {
      const { dir, env } = damaged((pglite) => {
        for (const name of readdirSync(join(pglite, "pg_wal"))) if (/^[0-9A-F]{24}$/.test(name)) rmSync(join(pglite, "pg_wal", name));
      });
      const ls = await runHatloop(["ls"], env);
      expect(ls.code).toBe(1);
      expect(ls.stderr).toBe(
        `hatloop: the embedded database at ${dir} is damaged: pg_wal holds no write-ahead log segment. Nothing was changed. ${remedy(dir)}\n`,
      );
    });

    it("db check finds nothing in a sound database", async () => {
      const check = await runHatloop(["db", "check"], { HATLOOP_HOME: sound.home, HATLOOP_CONFIG: join(sound.home, "none.json") });
      expect(check).toMatchObject({
        code: 0,
        stdout: `database at ${join(sound.home, "pglite")}: no damage found (every table read whole)\n`,
      });
    });
  });
});
