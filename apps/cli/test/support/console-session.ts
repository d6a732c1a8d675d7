import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHatloop, type Ran } from "./hatloop.js";
import { until } from "./until.js";
import { makeRepo } from "./repo.js";

// A real session on the embedded database for the console's browser tests, driven by a scripted
// model whose turns the test releases: a turn that holds runs a command waiting for a gate file, so
// the test decides when the loop moves on (no clock), and can look at the page in between.

export type Turn =
  /** Writes notes/NAME.txt; `text` is the model's words (signals such as CHECKLIST_ADD go there). */
  | { write: string; text?: string }
  /** Runs a command that waits for the gate file NAME (release(NAME)). */
  | { hold: string }
  /** Runs a shell command (its output is the tool result the page shows). */
  | { command: string }
  | { ask: string }
  | { complete: true };

export interface ConsoleSession {
  home: string;
  repo: string;
  /** The environment of every hatloop process of this test (serve, run, resume). */
  env: Record<string, string>;
  scenario: string;
  release(gate: string): void;
  /** Releases every gate of the scenario (after a test, whatever happened). */
  releaseAll(): void;
  /** `hatloop run` of the scenario in the editor hat, with `flags`; resolves when that run ends. */
  run(flags?: string[]): Promise<Ran>;
  /** The same run, its terminal read as it prints: `printed` waits for output (either stream) that contains `text`. */
  start(flags?: string[]): { done: Promise<Ran>; printed(text: string): Promise<void> };
  hatloop(args: string[]): Promise<Ran>;
}

const bin = new URL("../../dist/bin.js", import.meta.url).pathname;

function scenarioTurn(turn: Turn, i: number, gate: (name: string) => string): object {
  if ("write" in turn)
    return {
      text: turn.text ?? `Step ${i + 1}: writing ${turn.write}.`,
      tools: [{ name: "write_file", input: { path: `notes/${turn.write}.txt`, content: `${turn.write}\n` } }],
      delay_ms: 5,
      chunk_chars: 16,
    };
  if ("hold" in turn)
    return {
      text: `Waiting for ${turn.hold}.`,
      tools: [
        { name: "run_command", input: { command: `while [ ! -e '${gate(turn.hold)}' ]; do sleep 0.05; done; echo go ${turn.hold}` } },
      ],
    };
  if ("command" in turn) return { text: "Running a command.", tools: [{ name: "run_command", input: { command: turn.command } }] };
  if ("ask" in turn) return { text: "A choice only you can make.", tools: [{ name: "ask_user", input: { question: turn.ask } }] };
  return { text: "All steps written.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] };
}

export function consoleSession(turns: Turn[], extraEnv: Record<string, string> = {}): ConsoleSession {
  const { repo, root } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-console-"));
  const gate = (name: string) => join(root, `gate-${name}`);
  const scenario = join(root, "scenario.jsonl");
  writeFileSync(scenario, `${turns.map((t, i) => JSON.stringify(scenarioTurn(t, i, gate))).join("\n")}\n`);
  const env = {
    HATLOOP_HOME: home,
    HATLOOP_CONFIG: join(home, "none.json"),
    // The held commands wait for the test, however slow the machine.
    HATLOOP_TOOLS__COMMAND_TIMEOUT: "30m",
    // A checkpoint (and its commit) every iteration: the page has commits and a handoff to show.
    HATLOOP_CHECKPOINT__INTERVAL: "1",
    ...extraEnv,
  };
  const hatloop = (args: string[]) => runHatloop(args, env);
  const runArgs = (flags: string[]) => [
    "run",
    "write the notes",
    "--repo",
    repo,
    "--hat",
    "editor",
    "--model",
    `scripted:${scenario}`,
    "--plain",
    ...flags,
  ];
  return {
    home,
    repo,
    env,
    scenario,
    release: (name) => {
      if (!existsSync(gate(name))) writeFileSync(gate(name), "");
    },
    releaseAll: () => {
      for (const turn of turns) if ("hold" in turn && !existsSync(gate(turn.hold))) writeFileSync(gate(turn.hold), "");
    },
    run: (flags = []) => hatloop(runArgs(flags)),
    start: (flags = []) => {
      const child = spawn(process.execPath, [bin, ...runArgs(flags)], {
        env: { PATH: process.env.PATH, HOME: home, HATLOOP_DATABASE__LINGER: "0", ...env },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const done = new Promise<Ran>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
      return {
        done,
        printed: (text) => until(`the run printed "${text}"`, () => stdout.includes(text) || stderr.includes(text)).then(() => {}),
      };
    },
    hatloop,
  };
}

/** The id of the session a test started (the newest). */
export async function newestSessionId(session: ConsoleSession): Promise<string> {
  const out = await session.hatloop(["ls", "--json"]);
  const [newest] = JSON.parse(out.stdout) as Array<{ id: string }>;
  if (!newest) throw new Error(`no session yet: ${out.stderr}`);
  return newest.id;
}
