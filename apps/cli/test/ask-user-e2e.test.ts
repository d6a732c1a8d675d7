import { afterEach, describe, expect, it } from "vitest";
import { requireOrSkip } from "@hatloop/core/testing";
import { HATLOOP } from "./support/hatloop.js";
import { hasTmux, Tmux } from "./support/tmux.js";
import { openPane, runCommand, tuiRun } from "./support/tui-run.js";
import { until } from "./support/until.js";
import { withStore } from "./support/store.js";

// The agent asks, a person answers: headless (the run ends waiting, exit 4; `hatloop answer` from any
// terminal, then resume), and in the TUI (the question on screen, answered inline with a, or from
// another terminal while the run waits). The real binary, the embedded database, a scripted model.

const QUESTION = "Which licence should the notes carry: MIT or Apache-2.0?";
let tmux: Tmux | null = null;
afterEach(() => tmux?.kill());

describe("ask_user and hatloop answer", () => {
  it("headless: ends waiting (exit 4) with the question shown; answer refuses what it must; resume goes on with the answer", async () => {
    const run = tuiRun([{ write: "a" }, { ask: QUESTION }, { write: "b" }, { complete: true }]);
    const args = ["run", "write the notes", "--repo", run.repo, "--hat", "editor", "--model", `scripted:${run.scenario}`, "--plain"];
    const first = await run.hatloop(args);
    expect(first.code, first.stderr).toBe(4);
    const id = await run.sessionId();
    const sid = id.slice(0, 8);
    expect(first.stdout).toContain(`hatloop: the agent asks: ${QUESTION}`);
    expect(first.stdout).toContain(`answer with: ${HATLOOP} answer ${sid} "..."`);

    const shown = await run.hatloop(["show", sid]);
    expect(shown.stdout).toMatch(/^status {5}waiting \(waiting for an answer\)$/m);
    expect(shown.stdout).toContain(`question   ${QUESTION} (iteration 2, asked`);
    expect((await run.hatloop(["ls"])).stdout).toMatch(new RegExp(`${sid}.*waiting`));
    const handoff = JSON.parse((await run.hatloop(["handoff", sid, "--format", "json"])).stdout) as { open_question: unknown };
    expect(handoff.open_question).toMatchObject({ question: QUESTION, iteration: 2, answer: null });

    const empty = await run.hatloop(["answer", sid], { stdin: "  \n" }); // no words: the answer is read from stdin
    expect(empty).toMatchObject({ code: 2, stderr: "hatloop: the answer is empty\n" });
    const answered = await run.hatloop(["answer", sid, "-"], { stdin: "Apache-2.0, with a NOTICE file\n" });
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toContain(`answered; the session goes on when resumed: ${HATLOOP} resume ${sid}`);
    const twice = await run.hatloop(["answer", sid, "MIT"]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/question was already answered \(cli@.+\): Apache-2.0, with a NOTICE file$/m);

    const resumed = await run.hatloop(["resume", sid, "--plain"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/answered \(cli@.+\): Apache-2.0, with a NOTICE file/);
    await withStore(run.home, async (store) => {
      const session = (await store.sessions.get(id))!;
      expect(session).toMatchObject({ status: "completed", question: null });
      const said = (await store.messages.range(id, 1, 1000)).filter((m) => JSON.stringify(m.message).includes("with a NOTICE file"));
      expect(said).toHaveLength(1);
      expect(said[0]!.message.role).toBe("user");
    });
    const late = await run.hatloop(["answer", sid, "MIT"]);
    expect(late).toMatchObject({ code: 1 });
    expect(late.stderr).toContain(`session ${sid} has no open question (it is completed)`);
  });

  it.runIf(requireOrSkip(hasTmux(), "tmux"))(
    "in the TUI: the question on screen, answered with a; then one answered from another terminal",
    async () => {
      const run = tuiRun([{ ask: QUESTION }, { write: "a" }, { ask: "And the year on the notice?" }, { complete: true }]);
      tmux = new Tmux();
      const pane = openPane(tmux, "ask", 100, 30, runCommand(run));
      const asked = await tmux.waitFor(pane, /\? +Which licence should the notes carry: MIT or Apache-2\.0\? +\(a answers\)/);
      // The question has its own line; the header keeps runtime and cost (issue 28).
      expect(asked).toMatch(/\? waiting · hat editor · iteration \d+\/100 · \d+s\/4h00m · \$/);
      expect(asked).toMatch(/a answer {2}p pause/);
      tmux.keys(pane, "a");
      await tmux.waitFor(pane, /answer> /);
      tmux.keys(pane, "-l", "MIT");
      tmux.keys(pane, "Enter");
      await tmux.waitFor(pane, /answer sent: MIT/);

      // The second question: answered from another terminal while this one waits.
      await tmux.waitFor(pane, /\? +And the year on the notice\?/);
      const id = await run.sessionId();
      const other = await run.hatloop(["answer", id.slice(0, 8), "2026"]);
      expect(other.code, other.stderr).toBe(0);
      expect(other.stdout).toContain(`answered: the run of session ${id.slice(0, 8)} goes on`);
      const done = await tmux.waitFor(pane, /\[exit 0\]/);
      expect(done).toMatch(/completed/);
      await until("the session is completed", () =>
        withStore(run.home, async (store) => (await store.sessions.get(id))?.status === "completed"),
      );
    },
  );
});
