import { InvalidArgumentError, type Command } from "commander";
import { parseDuration } from "@hatloop/core/light";

/** Commander parser for a positive whole number; anything else is a usage error. */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError("expected a positive whole number");
  return Number(value);
}

/** Commander parser for a whole number, negative ones too (a priority). */
export function integerOption(value: string): number {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError("expected a whole number");
  return Number(value);
}

/** Commander parser for a positive amount such as 2.50. */
function positiveNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new InvalidArgumentError("expected a positive number");
  return n;
}

/** Commander parser for a duration such as 90s, 45m or 4h. */
export function durationOption(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError("expected a duration such as 90s, 45m or 4h");
  return ms;
}

/**
 * The budget flags. For `run` they set the budgets; for `resume` they add to what was used
 * (`more` words the help that way).
 */
export function budgetOptions(command: Command, more: boolean): Command {
  const what = (set: string, add: string) => (more ? add : set);
  return command
    .option("--max-iterations <n>", what("budget: model calls", "allow N more iterations"), positiveInt)
    .option("--max-cost <usd>", what("budget: dollars", "allow USD more"), positiveNumber)
    .option("--max-tokens <n>", what("budget: tokens processed", "allow N more tokens"), positiveInt)
    .option(
      "--max-runtime <duration>",
      what("budget: wall time, e.g. 45m or 4h", "allow this much more wall time, e.g. 1h"),
      durationOption,
    )
    .option(
      "--max-wait <duration>",
      "how long the agent's question waits for an answer before pausing (default: as long as it takes in the TUI, not at all headless)",
      durationOption,
    );
}

/** --usage-limit: what a run does at the account's usage limit (config retry.usageLimit). */
export function usageLimitOption(command: Command): Command {
  return command.option(
    "--usage-limit <wait|stop>",
    "at a usage limit that resets in hours: wait for the reset and go on (default), or stop, resumable",
    (value: string) => {
      if (value !== "wait" && value !== "stop") throw new InvalidArgumentError("expected wait or stop");
      return value;
    },
  );
}

/** The `retry` config --usage-limit sets; undefined leaves the configuration's. */
export function usageLimitConfig(flags: { usageLimit?: string }): { usageLimit: string } | undefined {
  return flags.usageLimit === undefined ? undefined : { usageLimit: flags.usageLimit };
}

/** --sandbox: how the agent's commands, the gates and project MCP servers are confined (config tools.sandbox.mode). */
export function sandboxOption(command: Command): Command {
  return command.option(
    "--sandbox <auto|on|off>",
    "confine the agent's commands to the worktree, hide secrets, filter the network: where possible (auto, default), required (on), or not (off)",
    (value: string) => {
      if (value !== "auto" && value !== "on" && value !== "off") throw new InvalidArgumentError("expected auto, on or off");
      return value;
    },
  );
}

/** The `tools` config --sandbox sets; undefined leaves the configuration's. */
export function sandboxConfig(flags: { sandbox?: string }): { sandbox: { mode: string } } | undefined {
  return flags.sandbox === undefined ? undefined : { sandbox: { mode: flags.sandbox } };
}

/** --pr and --draft (which implies --pr): a pull request when the session completes. */
export function pullRequestOptions(command: Command): Command {
  return command
    .option("--pr", "when the task completes: push its branch and open a pull request (gh), or print the compare URL and why not")
    .option("--draft", "like --pr, as a draft pull request");
}

/** The `pr` config the two flags set; undefined leaves the configuration's. */
export function pullRequestConfig(flags: { pr?: boolean; draft?: boolean }): { enabled: true; draft?: true } | undefined {
  if (!flags.pr && !flags.draft) return undefined;
  return flags.draft ? { enabled: true, draft: true } : { enabled: true };
}

/** The flags rm and prune share. */
export function removeOptions(command: Command): Command {
  return command
    .option("--force", "also remove running sessions and worktrees with uncommitted changes, and delete branches with unmerged commits")
    .option("--dry-run", "say what would be removed; remove nothing")
    .option("--json", "print what was done as a JSON array");
}
