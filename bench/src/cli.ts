import { chromiumInstalled, CHROMIUM } from "./console/browser.js";
import { consoleCommand } from "./console/command.js";
import { fleetCommand } from "./fleet/command.js";
import { binaryBuilt, HATLOOP_BIN } from "./fleet/processes.js";
import { parseArgs, USAGE, UsageError, type BenchArgs } from "./args.js";
import { contextCommand, contextInputs } from "./context/command.js";
import { TranscriptError } from "./context/transcript.js";
import { resultsDir, writeResults } from "./results.js";
import { redactionCommand } from "./redaction/command.js";
import { runtimeCommand } from "./runtime/command.js";
import { sandboxCommand } from "./sandbox/command.js";
import { startupCommand } from "./startup/command.js";
import { gnuTimeAvailable, GNU_TIME } from "./startup/timed-process.js";
import { tuiCommand } from "./tui/command.js";
import { tmuxAvailable } from "./tui/side-by-side.js";

// `pnpm bench [context|runtime|tui|redaction|fleet|startup|console|sandbox] [options]` (main.ts runs it): runs the benches, writes
// bench/out/*-latest.{json,md} (bench/results/ with --publish) and prints the Markdown tables (or the
// JSON with --json). Bad arguments and unreadable transcripts: one line on stderr, exit code 2.

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

export async function main(argv: readonly string[]): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message);
    throw error;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.commands.includes("fleet") && !binaryBuilt())
    return usageError(`fleet runs the built hatloop binary, and ${HATLOOP_BIN} is missing: run pnpm build first`);
  if (args.commands.includes("startup") && !binaryBuilt())
    return usageError(`startup runs the built hatloop binary, and ${HATLOOP_BIN} is missing: run pnpm build first`);
  if (args.commands.includes("startup") && !gnuTimeAvailable())
    return usageError(`startup measures processes with GNU time, and ${GNU_TIME} is missing (apt-get install time)`);
  if (args.commands.includes("tui") && !binaryBuilt())
    return usageError(`tui runs the built hatloop binary side by side with --plain, and ${HATLOOP_BIN} is missing: run pnpm build first`);
  if (args.commands.includes("tui") && !(gnuTimeAvailable() && tmuxAvailable()))
    return usageError(`tui measures whole processes in a tmux pane with GNU time: install tmux and time (apt-get install tmux time)`);
  if (args.commands.includes("console") && !binaryBuilt())
    return usageError(`console serves with the built hatloop binary, and ${HATLOOP_BIN} is missing: run pnpm build first`);
  if (args.commands.includes("console") && !chromiumInstalled())
    return usageError(`console measures pages in Chromium, and ${CHROMIUM} is missing (apt-get install chromium, or set CHROMIUM_PATH)`);
  const outputs: Array<{ name: string; json: unknown; markdown: string; files?: Record<string, string> }> = [];
  if (args.commands.includes("context")) {
    let inputs;
    try {
      inputs = contextInputs(args);
    } catch (error) {
      if (error instanceof TranscriptError) return usageError(error.message);
      throw error;
    }
    const started = Date.now();
    outputs.push({ name: "context", ...(await contextCommand(args, inputs, log)) });
    log(`context: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (args.commands.includes("runtime")) {
    const started = Date.now();
    outputs.push({ name: "runtime", ...(await runtimeCommand(args, log)) });
    log(`runtime: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (args.commands.includes("tui")) {
    const started = Date.now();
    outputs.push({ name: "tui", ...(await tuiCommand({ quick: args.quick, pg: args.pg }, log)) });
    log(`tui: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (args.commands.includes("redaction")) {
    const started = Date.now();
    outputs.push({ name: "redaction", ...redactionCommand(args.quick) });
    log(`redaction: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (args.commands.includes("fleet")) {
    const started = Date.now();
    outputs.push({ name: "fleet", ...(await fleetCommand(args.pg!, args.quick, log)) });
    log(`fleet: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (args.commands.includes("startup")) {
    const started = Date.now();
    outputs.push({ name: "startup", ...(await startupCommand(args.quick, args.pg, log)) });
    log(`startup: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (args.commands.includes("console")) {
    const started = Date.now();
    if (!args.pg) log("console: Postgres skipped: set HATLOOP_TEST_DATABASE_URL or pass --pg URL to include it.");
    outputs.push({ name: "console", ...(await consoleCommand({ pg: args.pg, quick: args.quick }, log)) });
    log(`console: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (args.commands.includes("sandbox")) {
    const started = Date.now();
    outputs.push({ name: "sandbox", ...(await sandboxCommand(args.quick, log)) });
    log(`sandbox: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  for (const out of outputs) {
    const files = writeResults(resultsDir(args), out.name, out.json, out.markdown, out.files);
    log(`${out.name}: results in ${files.json}`);
  }
  process.stdout.write(
    args.json
      ? `${JSON.stringify(Object.fromEntries(outputs.map((o) => [o.name, o.json])), null, 2)}\n`
      : `${outputs.map((o) => o.markdown).join("\n\n")}\n`,
  );
  return 0;
}

function usageError(message: string): number {
  process.stderr.write(`bench: ${message}\n`);
  return 2;
}
