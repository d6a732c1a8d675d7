// How the hints every view prints name hatloop ("continue with: hatloop resume 1a2b3c4d"): `hatloop`,
// unless the CLI says at start that it was not started by a name on the PATH (`node .../bin.js`,
// `pnpm hatloop`), so that a hint is a command that works where it is read.

let command = "hatloop";

/** The command that runs hatloop from the shell that started it; the CLI sets it once. */
export function setCommandName(name: string): void {
  command = name;
}

export function commandName(): string {
  return command;
}
