import type { Command } from "commander";
import { usageError } from "../errors.js";
import { registerDb } from "./db.js";
import { registerLogs } from "./logs.js";
import { registerLs } from "./ls.js";
import { registerDemo } from "./demo.js";
import { registerHandoff } from "./handoff.js";
import { registerServe } from "./serve.js";
import { registerResume } from "./resume.js";
import { registerRun } from "./run.js";
import { registerShow } from "./show.js";

export function registerCommands(program: Command): void {
  registerRun(program);
  registerResume(program);
  registerDemo(program);
  registerHandoff(program);
  registerServe(program);
  registerLs(program);
  registerShow(program);
  registerLogs(program);
  registerDb(program);
  registerPending(program);
}

/** Commands of the design whose issues have not landed: registered, answering exit code 2. */
function registerPending(program: Command): void {
  const pending: Array<[string, string]> = [
    ["watch", "follow a running session from another terminal"],
  ];
  for (const [name, description] of pending) {
    program
      .command(name)
      .description(`${description} (not implemented yet)`)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        throw usageError(`${name}: not implemented yet`);
      });
  }
}
