import type { Command } from "commander";
import { registerDb } from "./db.js";
import { registerFleet } from "./fleet.js";
import { registerLogs } from "./logs.js";
import { registerLs } from "./ls.js";
import { registerPrune } from "./prune.js";
import { registerDemo } from "./demo.js";
import { registerHandoff } from "./handoff.js";
import { registerServe } from "./serve.js";
import { registerResume } from "./resume.js";
import { registerRm } from "./rm.js";
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
  registerRm(program);
  registerPrune(program);
  registerDb(program);
  registerFleet(program);
}
