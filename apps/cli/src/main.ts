import { Command, CommanderError } from "commander";
import { CliError, ExitCode } from "./errors.js";
import { registerCommands } from "./commands/index.js";
import { version } from "./version.js";

// Only commander and the commands' definitions are loaded up front; a command's action module is
// imported when it runs: `hatloop --help` and `--version` load no database, SDK, React or Ink
// (lazy-loading.test.ts checks which modules they load). The printer and the database's errors are
// imported when there is an error to print.

/** The program, every command registered. `onError` receives commander's usage errors. */
export function buildProgram(onError: (text: string) => void = () => {}): Command {
  const program = new Command("hatloop")
    .description("Run long coding tasks with Claude in a Ralph loop: hats, checkpoints, handoffs, a TUI.")
    .version(version, "-V, --version")
    .option("--db <url>", "database: postgres://..., a PGlite directory, or memory:// (default: DATABASE_URL, else the embedded database)")
    .option("--no-color", "no colours (also NO_COLOR)")
    .exitOverride()
    // Usage errors are one line: "hatloop: unknown command 'x' (did you mean ...?)".
    .configureOutput({ outputError: (text) => onError(oneLine(text)) })
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 failure, 2 usage or config error, 3 stopped by a budget, 4 waiting for an answer, 75 database unreachable, 130 interrupted.",
    );
  registerCommands(program);
  return program;
}

function oneLine(text: string): string {
  const [first = "", ...rest] = text
    .replace(/^error: /, "")
    .trim()
    .split("\n");
  const hint = rest
    .map((l) => l.trim().replace(/^\((.*)\)$/, "$1"))
    .filter(Boolean)
    .join("; ");
  return hint ? `${first} (${hint.charAt(0).toLowerCase()}${hint.slice(1)})` : first;
}

/**
 * `hatloop` with no command, on a terminal, opens the home screen (`ls`: every session, live, with
 * its actions); in a pipe or a script it prints the usage (exit 2), as it always has.
 */
function withDefaultCommand(argv: string[], terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY)): string[] {
  const args = argv.slice(2);
  const rest = args.filter((a, i) => a !== "--db" && args[i - 1] !== "--db" && !a.startsWith("--db="));
  return terminal && rest.length === 0 ? [...argv, "ls"] : argv;
}

/** Runs the CLI and returns the exit code; prints user errors as one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  const usage: { error?: string } = {};
  const program = buildProgram((text) => (usage.error = text));
  try {
    await program.parseAsync(withDefaultCommand(argv));
    return typeof process.exitCode === "number" ? process.exitCode : ExitCode.ok;
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      if (thrown.exitCode === 0 || thrown.code === "commander.helpDisplayed" || thrown.code === "commander.version") return ExitCode.ok;
      if (usage.error !== undefined) (await import("./output/print.js")).printError(usage.error);
      return ExitCode.usage;
    }
    const { printError, printText } = await import("./output/print.js");
    const { DatabaseConfigError, DatabaseError, DatabaseUnavailableError, surfacedError } = await import("@hatloop/db");
    const error = surfacedError(thrown);
    if (error instanceof CommanderError) return ExitCode.usage;
    if (error instanceof CliError) {
      printError(error.message);
      return error.exitCode;
    }
    if (error instanceof DatabaseError) {
      printError(error.message);
      // A location that cannot work is the user's configuration to fix; a server that is down is not.
      if (error instanceof DatabaseUnavailableError) return ExitCode.databaseUnavailable;
      return error instanceof DatabaseConfigError ? ExitCode.usage : ExitCode.failure;
    }
    printError(error instanceof Error ? error.message : String(error));
    if (process.env.HATLOOP_DEBUG) printText(`${error instanceof Error ? error.stack : String(error)}`, process.stderr);
    return ExitCode.failure;
  }
}
