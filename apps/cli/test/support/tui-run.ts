import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHatloop } from "./hatloop.js";
import { makeRepo } from "./repo.js";
import type { Tmux } from "./tmux.js";

// A real session in a tmux pane, driven by a scripted model whose turns the test releases: a turn
// that holds runs a command waiting for a gate file, so the test decides when the loop moves on
// (no clock). Everything the test reads comes from the screen (capture-pane) or the CLI.

export const bin = new URL("../../dist/bin.js", import.meta.url).pathname;

/** `write`: a turn that writes a note (`text`: what the model says with it); `plan`: a turn whose text names the items, then adds them with `CHECKLIST_ADD:<n>:<item>` lines. */
export type Step = { write: string; text?: string } | { hold: string } | { ask: string } | { plan: string[] } | { complete: true };

export interface TuiRun {
  home: string;
  repo: string;
  root: string;
  /** The variables of that environment, for a test that starts the binary itself. */
  vars: Record<string, string>;
  /** The shell command prefix: a clean environment for the binary in the pane. */
  env: string;
  gate(name: string): string;
  release(name: string): void;
  sessionId(): Promise<string>;
  hatloop(args: string[], options?: { stdin?: string }): ReturnType<typeof runHatloop>;
  /** `run`'s arguments for this repository and scenario, in plain lines, then `extra`. */
  plainRunArgs(extra?: string[]): string[];
}

export function tuiRun(steps: Step[], extraEnv = ""): TuiRun & { scenario: string } {
  const { repo, root } = makeRepo();
  const home = mkdtempSync(join(tmpdir(), "hatloop-tui-run-"));
  const gate = (name: string) => join(root, `gate-${name}`);
  const turns = steps.map((s, i) =>
    "write" in s
      ? {
          text: s.text ?? `Step ${i + 1}: writing ${s.write}.`,
          tools: [{ name: "write_file", input: { path: `notes/${s.write}.txt`, content: `${s.write}\n` } }],
          delay_ms: 5,
          chunk_chars: 16,
        }
      : "hold" in s
        ? {
            text: `Waiting for ${s.hold}.`,
            tools: [{ name: "run_command", input: { command: `while [ ! -e '${gate(s.hold)}' ]; do sleep 0.05; done; echo go` } }],
          }
        : "ask" in s
          ? { text: "A choice only you can make.", tools: [{ name: "ask_user", input: { question: s.ask } }] }
          : "plan" in s
            ? {
                text: [`Planning ${s.plan.length} items.`, ...s.plan.map((item, n) => `CHECKLIST_ADD:${n + 1}:${item}`)].join("\n"),
                tools: [{ name: "write_file", input: { path: "notes/plan.txt", content: `${s.plan.join("\n")}\n` } }],
              }
            : { text: "All steps written.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] },
  );
  const scenario = join(root, "scenario.jsonl");
  writeFileSync(scenario, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  // No warm holder lingering after the test (see processEnv in hatloop.ts).
  const vars = {
    HATLOOP_HOME: home,
    HATLOOP_CONFIG: join(home, "none.json"),
    HATLOOP_TOOLS__COMMAND_TIMEOUT: "30m",
    HATLOOP_DATABASE__LINGER: "0",
  };
  const env = `env -u CI -u FORCE_COLOR -u NO_COLOR ${Object.entries(vars)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ")} TERM=xterm-256color ${extraEnv}`;
  return {
    home,
    repo,
    root,
    vars,
    scenario,
    env,
    gate,
    release: (name) => {
      if (!existsSync(gate(name))) writeFileSync(gate(name), "");
    },
    sessionId: async () => {
      const out = await runHatloop(["ls", "--json"], vars);
      return (JSON.parse(out.stdout) as Array<{ id: string }>)[0]!.id;
    },
    hatloop: (args, options) => runHatloop(args, vars, options),
    plainRunArgs: (extra = []) => [
      "run",
      "write the notes",
      "--repo",
      repo,
      "--hat",
      "editor",
      "--model",
      `scripted:${scenario}`,
      "--plain",
      ...extra,
    ],
  };
}

/** The `run` command line for a pane: the session, then its exit code printed on the normal screen. */
export function runCommand(run: TuiRun & { scenario: string }, flags = "", before = ""): string {
  return `${before}${run.env} ${process.execPath} ${bin} run 'write the notes' --repo ${run.repo} --hat editor --model scripted:${run.scenario} ${flags}; echo "[exit $?]"; sleep 600`;
}

/** Starts a pane of `columns` x `rows` running `command`. */
export function openPane(tmux: Tmux, name: string, columns: number, rows: number, command: string): string {
  tmux.run("new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), command);
  return `${name}:0.0`;
}
