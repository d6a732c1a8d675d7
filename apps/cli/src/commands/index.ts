import type { Command } from "commander";
import { registerDb } from "./db.js";
import { registerLogs } from "./logs.js";
import { registerLs } from "./ls.js";
import { registerDemo } from "./demo.js";
import { registerHandoff } from "./handoff.js";
import { registerServe } from "./serve.js";
import { registerResume } from "./resume.js";
import { registerRun } from "./run.js";
import { registerShow } from "./show.js";
import { registerWatch } from "./watch.js";

export function registerCommands(program: Command): void {
  registerRun(program);
  registerResume(program);
  registerDemo(program);
  registerHandoff(program);
  registerServe(program);
  registerWatch(program);
  registerLs(program);
  registerShow(program);
  registerLogs(program);
  registerDb(program);
}
