import type { Command } from "commander";
import type { ChecklistItem, CheckpointRecord, SessionRecord } from "@hatloop/core";
import { formatAge, formatCost, formatDuration, formatTokens } from "../format.js";
import { printJson, resolveSession, withStore } from "../runtime.js";
import { displayStatus } from "../session/liveness.js";

export function registerShow(program: Command): void {
  program
    .command("show")
    .description("show one session: status, branch, budgets, usage, checklist, last checkpoint")
    .argument("<session>", "session id or a unique prefix of it")
    .option("--json", "print as JSON")
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      await withStore(command, async (store) => {
        const session = await resolveSession(store, id);
        const [checklist, checkpoint, messages] = await Promise.all([
          store.checklist.list(session.id),
          store.checkpoints.latest(session.id),
          store.messages.count(session.id),
        ]);
        if (options.json) return printJson({ ...session, checklist, lastCheckpoint: checkpoint && { seq: checkpoint.seq, reason: checkpoint.reason, iteration: checkpoint.iteration, gitCommit: checkpoint.gitCommit, createdAt: checkpoint.createdAt }, messages });
        process.stdout.write(`${renderSession(session, checklist, checkpoint, messages)}\n`);
      });
    });
}

export function renderSession(s: SessionRecord, checklist: ChecklistItem[], checkpoint: CheckpointRecord | null, messages: number): string {
  const b = s.budgets;
  const lines = [
    `session    ${s.id}`,
    `task       ${s.task}`,
    `status     ${displayStatus(s)}${s.stopReason ? ` (${s.stopReason})` : ""}`,
    `hat        ${s.hat}`,
    `iteration  ${s.iteration}${b.maxIterations ? ` of ${b.maxIterations}` : ""}`,
    `branch     ${s.branch}${s.inPlace ? " (in place)" : ""}`,
    `worktree   ${s.worktreePath}`,
    `base       ${s.baseCommit.slice(0, 12)}${s.headCommit ? `   head ${s.headCommit.slice(0, 12)}` : ""}`,
    `model      ${s.model}`,
    `tokens     in ${formatTokens(s.usage.inputTokens)}  out ${formatTokens(s.usage.outputTokens)}  cache read ${formatTokens(s.usage.cacheReadTokens)}  cache write ${formatTokens(s.usage.cacheWriteTokens)}`,
    `cost       ${formatCost(s.costUsd)}${b.maxCostUsd ? ` of ${formatCost(b.maxCostUsd)}` : ""}`,
    `runtime    ${formatDuration(s.runtimeMs)}${b.maxRuntimeMs ? ` of ${formatDuration(b.maxRuntimeMs)}` : ""}`,
    `context    ${formatTokens(s.contextTokens)} of ${formatTokens(s.contextWindow)} tokens, ${messages} messages stored`,
    `created    ${s.createdAt.toISOString()} (${formatAge(s.createdAt)})`,
  ];
  if (s.lastError) lines.push(`error      ${s.lastError}`);
  if (checkpoint) lines.push(`checkpoint #${checkpoint.seq} ${checkpoint.reason} at iteration ${checkpoint.iteration}${checkpoint.gitCommit ? `, commit ${checkpoint.gitCommit.slice(0, 12)}` : ""}`);
  if (checklist.length) {
    lines.push("checklist");
    const mark = { pending: " ", in_progress: "~", done: "x", failed: "!", skipped: "-" } as const;
    for (const item of checklist) lines.push(`  [${mark[item.status]}] ${item.id}. ${item.description}${item.reason ? ` (${item.reason})` : ""}`);
  }
  return lines.join("\n");
}
