// Exit codes are part of the interface: scripts and CI depend on them (README "Exit codes").
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  budget: 3,
  /** The agent asked a question and the run ended to wait for it (headless): `hatloop answer`, then resume. */
  waiting: 4,
  /** The database was unreachable (at start, or for longer than database.outageTimeout); resumable. */
  databaseUnavailable: 75,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error meant for the user: printed as one line, exits with its code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.failure,
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}
