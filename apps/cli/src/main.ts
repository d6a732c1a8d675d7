import { Command, CommanderError } from "commander";
import { DatabaseConfigError, DatabaseError, DatabaseUnavailableError, surfacedError } from "@hatloop/db";
import { CliError, ExitCode } from "./errors.js";
import { registerCommands } from "./commands/index.js";
import { version } from "./version.js";
import { printError, printText } from "./output/print.js";

export function buildProgram(): Command {
  const program = new Command("hatloop")
    .description("Run long coding tasks with Claude in a Ralph loop: hats, checkpoints, handoffs, a TUI.")
    .version(version, "-V, --version")
    .option("--db <url>", "database: postgres://..., a PGlite directory, or memory:// (default: DATABASE_URL, else the embedded database)")
    .option("--no-color", "no colours (also NO_COLOR)")
    .exitOverride()
    // Usage errors are one line: "hatloop: unknown command 'x' (did you mean ...?)".
    .configureOutput({ outputError: (text) => printError(oneLine(text)) })
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 failure, 2 usage or config error, 3 stopped by a budget, 75 database unreachable, 130 interrupted.",
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

/** Runs the CLI and returns the exit code; prints user errors as one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : ExitCode.ok;
  } catch (thrown) {
    const error = surfacedError(thrown);
    if (error instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      if (error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version") return ExitCode.ok;
      return ExitCode.usage;
    }
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
    if (process.env.HATLOOP_DEBUG) printText(`${(error as Error).stack}`, process.stderr);
    return ExitCode.failure;
  }
}
