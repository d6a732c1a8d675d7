import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// Text from the model, a tool or the database must never drive the terminal. The scripted model
// sends a clipboard write (OSC 52), a screen clear, a title, a hyperlink and an 8-bit CSI (U+009B)
// through every channel (task, model text, tool input and output, scratchpad, checklist, a file
// name); no printer may pass a control character on, and JSON output must escape them.

const OSC52 = "\x1b]52;c;ZWNobyBwd25lZA==\x07";
const CLEAR = "\x1b[2J\x1b[H";
const TITLE = "\x1b]0;pwned\x07";
const LINK = "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\";
const C1 = "\u009b2J";
const ALL = `${OSC52}${CLEAR}${TITLE}${LINK}${C1}`;
/** Any control character but tab and newline: C0, ESC, DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let env: Record<string, string>;
let id: string;
let runOutput: { stdout: string; stderr: string };

beforeAll(async () => {
  const { repo, root } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-term-"));
  env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json") };
  const turns = [
    { text: `Looking ${ALL}\n`, tools: [{ name: "read_file", input: { path: `missing${OSC52}.txt` } }] },
    {
      text: `SCRATCHPAD:\n## Plan\n- wipe ${CLEAR} it\n`,
      tools: [{ name: "write_file", input: { path: `notes/x${TITLE}.txt`, content: `x${C1}\n` } }],
    },
    { text: `CHECKLIST_ADD:1:check ${C1} item\n` },
    { text: `CHECKLIST_DONE:1\nAll done ${LINK}`, tools: [{ name: "task_complete", input: { summary: `done ${OSC52}` } }] },
  ];
  const scenario = join(root, "escapes.jsonl");
  writeFileSync(scenario, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  const run = await runHatloop(
    ["run", `tidy ${TITLE} up`, "--repo", repo, "--hat", "editor", "--model", `scripted:${scenario}`, "--plain"],
    env,
  );
  expect(run.code, run.stderr).toBe(0);
  runOutput = run;
  id = JSON.parse((await runHatloop(["ls", "--json"], env)).stdout)[0].id;
});

describe("no control sequence from content reaches the terminal", () => {
  it("in the run's plain output", () => {
    expect(runOutput.stdout).toContain("Looking \\x1b]52;c;");
    expect(runOutput.stdout).not.toMatch(CONTROL);
    expect(runOutput.stderr).not.toMatch(CONTROL);
  });

  it.each([
    ["logs", ["logs"]],
    ["watch --plain", ["watch", "--plain"]],
    ["show", ["show"]],
    ["ls --plain", ["ls", "--plain"]],
    ["handoff", ["handoff"]],
    ["handoff --format yaml", ["handoff", "--format", "yaml"]],
  ])("in %s", async (_, args) => {
    const out = await runHatloop([...args.slice(0, 1), ...(args[0] === "ls" ? [] : [id]), ...args.slice(1)], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout.length).toBeGreaterThan(0);
    expect(out.stdout).not.toMatch(CONTROL);
    expect(out.stderr).not.toMatch(CONTROL);
  });

  it.each([
    ["logs --json", ["logs", "ID", "--json"]],
    ["watch --json", ["watch", "ID", "--json"]],
    ["show --json", ["show", "ID", "--json"]],
    ["ls --json", ["ls", "--json"]],
    ["handoff --format json", ["handoff", "ID", "--format", "json"]],
  ])("in %s, escaped so that the value parses back", async (_, args) => {
    const out = await runHatloop(
      args.map((a) => (a === "ID" ? id : a)),
      env,
    );
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).not.toMatch(CONTROL);
    const values =
      args.includes("--json") && args[0] !== "show" && args[0] !== "ls"
        ? out.stdout
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l))
        : [JSON.parse(out.stdout)];
    expect(JSON.stringify(values)).toMatch(/\\u001b|\\u009b/); // the content is there, escaped
  });
});
