// The agent's tools, confined to the task's worktree; the quality gates; git for the loop.

export { createToolset, TOOL_NAMES, READ_ONLY_TOOLS, DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_CHARS } from "./toolset.js";
export type { ToolName, ToolsetOptions } from "./toolset.js";
export { confinePath } from "./confine.js";
export type { ConfinedPath, ConfineOptions } from "./confine.js";
export { ToolError } from "./tool-error.js";
export { destructiveReason } from "./shell/destructive.js";
export { childEnv } from "./shell/child-env.js";
export { runShell } from "./shell/run-shell.js";
export { isolationAvailable } from "./shell/isolation.js";
export type { ShellOptions, ShellRun } from "./shell/run-shell.js";

export { detectGateCommands, resolveGateCommands, GATE_ORDER } from "./gates/detect.js";
export type { GateCommands, GateName } from "./gates/detect.js";
export { runGates, takeBaseline, GatesAbortedError } from "./gates/run-gates.js";
export type { GateBaseline, BaselineCheck, GateRunOptions } from "./gates/run-gates.js";
export { extractFailureLines, normaliseFailureLine } from "./gates/failure-lines.js";
export { formatGateReport } from "./gates/format-report.js";

export {
  createTaskWorktree,
  findRepository,
  inPlaceWorkspace,
  makeTaskWorktree,
  planTaskWorktree,
  removeTaskWorktree,
  taskBranchName,
} from "./git/worktree.js";
export type { TaskWorkspace, CreateTaskWorktreeOptions, RemoveTaskWorktreeOptions } from "./git/worktree.js";
export { commitAll, headCommit, hasChangesSince, resetTo } from "./git/commits.js";
export { clearStaleLocks } from "./git/stale-locks.js";
export { unmergedCommits } from "./git/branches.js";
export { deleteRef, dirtyStateRef, hasRef, keepDirtyState } from "./git/dirty-state.js";
export { gitFacts, worktreeDiff } from "./git/facts.js";
export type { GitFacts } from "./git/facts.js";
export { WorkspaceError } from "./git/workspace-error.js";
export type { WorkspaceErrorCode } from "./git/workspace-error.js";
export { FALLBACK_IDENTITY } from "./git/client.js";
export { checkoutTaskWorktree, fetchedBranch, hasCommit, pushTaskBranch, syncRepository } from "./git/remote.js";
export { fetchSnapshot, headTree, pushSnapshot, restoreSnapshot, snapshotCommit, snapshotRef, worktreeTree } from "./git/snapshot.js";
export { remoteCommit } from "./git/remote-base.js";
export { pushBranch, remoteDefaultBranch, remoteUrl } from "./git/publish.js";
export { createPullRequest } from "./github/gh.js";
export { compareUrlOf, webAddressOf } from "./github/web-address.js";
export { connectMcpServers, type McpTools } from "./mcp/mcp-tools.js";
export { McpSetupError, sessionServers } from "./mcp/project-servers.js";
export { sandboxPolicy, remoteHostOf, SECRET_PATHS, CACHE_PATHS, REGISTRY_HOSTS } from "./sandbox/policy.js";
export type { SandboxPolicy, SandboxPlace } from "./sandbox/policy.js";
export { closeSandbox, sandboxSupport } from "./sandbox/runtime.js";
export type { SandboxSupport } from "./sandbox/runtime.js";
