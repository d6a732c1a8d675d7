import type { Command } from "commander";
import type { ChecklistItem, CheckpointRecord, GradeRecord, SessionRecord } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";
import { formatAge, formatCost, formatDuration, formatTokens, shortId } from "../format.js";
import { resolveSession, withStore } from "../runtime.js";
import { printJson, printText } from "../output/print.js";
import { fleetViews } from "../fleet/fleet-views.js";
import { fleetLines, fleetStatus, type FleetView } from "../fleet/listing.js";
import { currentStatus } from "../session/liveness.js";
import { describeWorktree, worktreeState, type WorktreeState } from "../session/worktree-place.js";
import { invocation } from "../invocation.js";

export async function showAction(id: string, options: { json?: boolean }, command: Command): Promise<void> {
  await withStore(command, async (store) => {
    const details = await sessionDetails(store, await resolveSession(store, id));
    const { session, checklist, checkpoint, messages, dirtyRef, fleet, grades } = details;
    if (options.json)
      return printJson({
        ...session,
        status: details.status,
        worktreeState: details.worktree,
        checklist,
        lastCheckpoint: checkpoint && {
          seq: checkpoint.seq,
          reason: checkpoint.reason,
          iteration: checkpoint.iteration,
          gitCommit: checkpoint.gitCommit,
          createdAt: checkpoint.createdAt,
        },
        messages,
        dirtyRef,
        fleet: fleet ?? null,
        grades,
      });
    printText(renderSession(details));
  });
}

export interface SessionDetails {
  session: SessionRecord;
  checklist: ChecklistItem[];
  checkpoint: CheckpointRecord | null;
  messages: number;
  /** In place: where the checkout's uncommitted changes from before the session are kept, if they were. */
  dirtyRef: string | null;
  /** As the run's view shows it (a run held by the user is "paused"), and as `ls` does ("queued"). */
  status: string;
  /** A fleet session's queue state and worker; undefined for other sessions. */
  fleet: FleetView | undefined;
  /** Whether the worktree is here to be used, gone, or on another machine. */
  worktree: WorktreeState;
  /** The grader's judgements of the acceptance criteria, oldest first. */
  grades: GradeRecord[];
}

export async function sessionDetails(store: DbStore, session: SessionRecord): Promise<SessionDetails> {
  const [checklist, checkpoint, messages, dirtyRef, status, fleet, grades] = await Promise.all([
    store.checklist.list(session.id),
    store.checkpoints.latest(session.id),
    store.messages.count(session.id),
    session.inPlace ? keptDirtyState(session) : null,
    currentStatus(store, session),
    fleetViews(store, [session]).then((views) => views.get(session.id)),
    store.grades.list(session.id),
  ]);
  return {
    session,
    checklist,
    checkpoint,
    messages,
    dirtyRef,
    status: fleetStatus(fleet, status),
    fleet,
    worktree: worktreeState(session, fleet),
    grades,
  };
}

/** The ref holding the checkout's changes from before an in-place session, if kept (git is loaded only for these). */
async function keptDirtyState(session: SessionRecord): Promise<string | null> {
  const { dirtyStateRef, hasRef } = await import("@hatloop/tools");
  const ref = dirtyStateRef(shortId(session.id));
  return (await hasRef(session.repoPath, ref)) ? ref : null;
}

export function renderSession(details: SessionDetails): string {
  const { session: s, checklist, checkpoint, messages, dirtyRef, status, fleet, worktree } = details;
  const b = s.budgets;
  const lines = [
    `session    ${s.id}`,
    `task       ${s.task}`,
    `status     ${status}${s.stopReason ? ` (${s.stopReason})` : status === "paused" && s.status === "running" ? " (paused by the user)" : ""}`,
    `hat        ${s.hat}`,
    `iteration  ${s.iteration}${b.maxIterations ? ` of ${b.maxIterations}` : ""}`,
    `branch     ${s.branch}${s.inPlace ? " (in place)" : ""}`,
    `worktree   ${describeWorktree(s, worktree, fleet !== undefined)}`,
    `base       ${s.baseCommit.slice(0, 12)}${s.headCommit ? `   head ${s.headCommit.slice(0, 12)}` : ""}`,
    ...(dirtyRef ? [`dirty      ${dirtyRef} (your uncommitted changes before the session; git stash apply ${dirtyRef})`] : []),
    `model      ${s.model}`,
    `tokens     in ${formatTokens(s.usage.inputTokens)}  out ${formatTokens(s.usage.outputTokens)}  cache read ${formatTokens(s.usage.cacheReadTokens)}  cache write ${formatTokens(s.usage.cacheWriteTokens)}`,
    `cost       ${formatCost(s.costUsd)}${b.maxCostUsd ? ` of ${formatCost(b.maxCostUsd)}` : ""}`,
    `runtime    ${formatDuration(s.runtimeMs)}${b.maxRuntimeMs ? ` of ${formatDuration(b.maxRuntimeMs)}` : ""}`,
    `context    ${formatTokens(s.contextTokens)} of ${formatTokens(s.contextWindow)} tokens, ${messages} messages stored`,
    `created    ${s.createdAt.toISOString()} (${formatAge(s.createdAt)})`,
  ];
  if (s.lastError) lines.push(`error      ${s.lastError}`);
  if (s.question) lines.push(...questionLines(s));
  if (checkpoint)
    lines.push(
      `checkpoint #${checkpoint.seq} ${checkpoint.reason} at iteration ${checkpoint.iteration}${checkpoint.gitCommit ? `, commit ${checkpoint.gitCommit.slice(0, 12)}` : ""}`,
    );
  if (checklist.length) {
    lines.push("checklist");
    const mark = { pending: " ", in_progress: "~", done: "x", failed: "!", skipped: "-" } as const;
    for (const item of checklist)
      lines.push(`  [${mark[item.status]}] ${item.id}. ${item.description}${item.reason ? ` (${item.reason})` : ""}`);
  }
  return [...lines, ...gradeLines(details.grades), ...fleetLines(fleet)].join("\n");
}

/** The grader's latest verdicts on the acceptance criteria, each with its reason. */
function gradeLines(grades: readonly GradeRecord[]): string[] {
  const last = grades.at(-1);
  if (!last) return [];
  const revisions = grades.filter((g) => !g.satisfied).length;
  const met = last.verdicts.filter((v) => v.met).length;
  return [
    `grader     round ${last.round}: ${met} of ${last.verdicts.length} criteria met, ${revisions} revision${revisions === 1 ? "" : "s"} so far`,
    ...last.verdicts.map((v) => `  [${v.met ? "x" : " "}] ${v.criterion} (${v.reason})`),
  ];
}

/** The agent's open question, or the answer given and not yet delivered (the run resumes with it). */
function questionLines({ id, question }: SessionRecord): string[] {
  if (!question) return [];
  const asked = `question   ${question.text} (iteration ${question.iteration}, asked ${formatAge(new Date(question.askedAt))})`;
  if (question.answer === null) return [asked, `           answer with: ${invocation()} answer ${shortId(id)} "..."`];
  return [asked, `answer     ${question.answer} (${question.answeredBy ?? "?"}; the run goes on with it, or resume the session)`];
}
