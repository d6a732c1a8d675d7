export { main, buildProgram } from "./main.js";
export { ExitCode, CliError } from "./errors.js";
export { loadConfig } from "./config/load.js";
