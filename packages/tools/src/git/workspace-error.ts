/** Why a task workspace could not be set up; the message is one line for the terminal. */
export type WorkspaceErrorCode =
  | "no_such_directory"
  | "not_a_repository"
  | "no_commits"
  /** A remote's HEAD names a branch it does not have. */
  | "dangling_head"
  | "no_such_branch"
  | "detached_head"
  | "branch_exists"
  | "worktree_exists"
  | "invalid_session_id"
  | "git_failed";

export class WorkspaceError extends Error {
  override readonly name = "WorkspaceError";
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
  ) {
    super(message);
  }
}
